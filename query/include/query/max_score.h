// The best k hits of a disjunction without scoring every match: MaxScore
// (Turtle and Flood, 1995; as Lucene and PISA use it). The clauses are
// ordered by their score bounds (DocCursor::max_score()); the prefix whose
// bounds add up to no more than the current k-th best score is
// "non-essential": a doc that only they hold cannot make the top k, so their
// docs are never candidates. Candidates come from the essential clauses;
// the non-essential ones are only advanced to a candidate, best bound first,
// and a candidate is dropped as soon as its score so far plus the bounds not
// yet added cannot beat the k-th. The hits kept are those of scoring every
// match (ties go to the lower doc id, which comes first). Block bounds
// (DocCursor::block_bound) refine this per window of doc ids (block-max
// MaxScore, as in Lucene 9): a window whose blocks cannot beat the k-th best
// is skipped without decoding.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "index/reader/index_reader.h"
#include "query/doc_cursor.h"
#include "query/interrupt.h"
#include "query/top_k.h"

namespace fts {

struct HitCount {
  uint64_t hits = 0;   // matches seen
  bool exact = true;   // false once pruning may have skipped a match
};

// Collects the matches of the OR of clauses (one segment's cursors, each
// positioned on its first doc) into top, with the segment's global ids.
// Pruning starts once count.hits reaches count_exactly (the total-hits
// threshold; UINT64_MAX: never prune); count carries across segments.
// interrupt ticks once per candidate (time budget, cancellation).
// excluded (may be null) holds docs that are no match whatever the clauses
// hold; it is only probed (DocCursor::contains), at the candidates. So are
// the segment's live docs: the clauses may hold deleted docs (a test per
// candidate rather than per posting of each clause).
// count_all, for one clause and nothing excluded: count exactly all the
// same, the docs of the windows pruning rules out counted without scores
// (DocCursor::count_through) in the one pass.
void collect_max_score(std::vector<std::unique_ptr<DocCursor>>& clauses, DocCursor* excluded,
                       const IndexReader::Segment& segment, TopK& top, uint64_t count_exactly, HitCount& count,
                       Interrupt& interrupt, bool count_all = false);

}  // namespace fts
