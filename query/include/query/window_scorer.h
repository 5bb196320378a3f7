// Every match of a disjunction scored, a window of doc ids at a time (as
// Lucene's BooleanScorer): each clause in turn adds its scores for the
// window's docs into an array, then the window's matches are counted and
// offered to the top k. Per match of a clause that is a score and an add,
// with no per-doc merge of the clauses; it gives the exact count with the
// ranking in one pass, where pruning (query/max_score.h) needs a separate
// count, and prunes little when no clause dominates (`critical OR care OR
// medicine`).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "index/reader/index_reader.h"
#include "query/doc_cursor.h"
#include "query/interrupt.h"
#include "query/max_score.h"
#include "query/top_k.h"

namespace fts {

// Whether collect_all_scored should beat collect_max_score plus a count on
// these clauses (each on its first doc, the exhausted ones ignored). Pruning
// pays when the clauses it will soon leave non-essential hold most of the
// postings: those whose bounds, lowest first, add up to no more than the
// best clause's bound (the k-th best score tends to reach about that, from
// the best clause's own top docs), as a common term beside a rare one.
// Tuned on the 1M-doc dump's ORs of terms from or.txt and
// benchmark-game.txt (421 queries): scoring all where those clauses hold
// under 70% of the postings took 0.88 of the time of always pruning, and
// always scoring all 1.20; the better way per query would have taken 0.84.
// A clause's cost stands for its postings. A clause whose work exceeds its
// cost (a phrase, which reads positions, or a conjunction) is read again
// by the separate count: where what the clauses read beyond their matches
// adds up to their postings, all are scored (`"with this" OR "acting by
// poison"`, top 10 of 438 hits on the 1M-doc dump: 5.0 ms pruned beside a
// count, 2.5 ms). Below that the count costs less than scoring every
// match: `(b OR propagation) emmarble OR distinct NOT entrance`, 86,180
// hits on the 6M-doc dump, 2.09 -> 1.27 ms.
bool scoring_all_pays(const std::vector<std::unique_ptr<DocCursor>>& clauses);

// Collects every live match of the OR of clauses (one segment's cursors,
// each on its first doc) into top with the segment's global ids, and counts
// them exactly. The clauses may hold deleted docs: they are left out here,
// a test per match rather than per posting of each clause, and the clauses
// keep their bulk score_window. A doc's score is the sum of its clauses' scores in their order
// in clauses (the order collect_max_score sums in). excluded (may be null)
// is probed at each match, in ascending order. interrupt ticks once per
// match.
void collect_all_scored(std::vector<std::unique_ptr<DocCursor>>& clauses, DocCursor* excluded,
                        const IndexReader::Segment& segment, TopK& top, HitCount& count, Interrupt& interrupt);

}  // namespace fts
