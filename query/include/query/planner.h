// From an analyzed QueryNode to a cursor tree per segment.
//
// Rewrites (once per query, in PreparedQuery, query/rewrite.h): double
// negations dropped, nested ANDs / ORs flattened, repeated clauses merged
// into one weighted clause. Per segment (plan_segment):
//   AND(p1.., NOT n1..)  -> AndNot(And(p1..) by cost, Or(n1..)); no positives:
//                           AllDocs instead of And; an empty p -> empty.
//   OR(p1.., NOT n1..)   -> Or(p1.., AndNot(AllDocs, And(n1..)))  since
//                           NOT n1 OR NOT n2 = NOT (n1 AND n2).
//   NOT x                -> AndNot(AllDocs, x).
//   many-child OR that is iterated to the end -> materialised bitset.
// Negated parts never score, so they (and everything in count mode) are
// planned as filters, which the filter cache may serve from a bitmap.
#pragma once

#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "index/reader/index_reader.h"
#include "query/bm25.h"
#include "query/collection_stats.h"
#include "query/doc_cursor.h"
#include "query/filter_cache.h"
#include "query/query_node.h"

namespace fts {

// Query-wide state, computed once per search and shared by the segments'
// plans: the rewritten tree, leaf weights (index-wide statistics) and the
// canonical text of the nodes (cache key and explain label). Segments may
// be planned on several threads at once.
class PreparedQuery {
 public:
  // stats: the statistics to weigh the leaves with; null: index's own.
  PreparedQuery(const QueryNode& query, const IndexReader& index, bool scoring,
                const CollectionStats* stats = nullptr);

  // After rewriting the query may match nothing (x AND NOT x): then there
  // is no root, and every segment's plan is empty.
  bool matches_nothing() const { return !root_; }
  const QueryNode& root() const { return *root_; }
  // Null for a node without weight (not a leaf, or prepared without scores).
  const Bm25Weight* weight(const QueryNode& leaf) const;
  // Computed on first use: most nodes of a big query never need it.
  const std::string& text(const QueryNode& node) const;
  // The dictionary entry of leaf.terms[term] in leaf.field of segment. The
  // weights' statistics read every segment's entry of every leaf term, and
  // they are kept, so a plan reads each segment's dictionary once per term
  // and not twice (on an index of 20 segments, dictionary lookups were a
  // third of a cheap query); asked of the segment when not kept.
  std::optional<TermInfo> lookup(const QueryNode& leaf, size_t term, const SegmentReader& segment) const;
  // The keys of the word pairs (index/format/word_pairs.h) of an
  // unqualified phrase's adjacent tokens that the index pairs, once each;
  // null when it has none.
  const std::vector<std::string>* pair_keys(const QueryNode& phrase) const;

 private:
  void find_pairs(const QueryNode& node, const PairWords& words);

  void prepare(const QueryNode& node, const IndexReader& index, const CollectionStats* stats, double multiplier);

  struct Leaf {
    Bm25Weight weight;
    // The entry of term t in segment s at t * segments + s; empty when the
    // weight came from given statistics.
    std::vector<std::optional<TermInfo>> entries;
  };

  std::unique_ptr<QueryNode> root_;
  std::span<const IndexReader::Segment> segments_;  // the index's, whose entries leaves hold
  std::unordered_map<const QueryNode*, Leaf> leaves_;
  std::unordered_map<const QueryNode*, std::vector<std::string>> pair_keys_;
  // Node-based: references stay valid as it grows (cursors keep views).
  mutable std::mutex text_mutex_;
  mutable std::unordered_map<const QueryNode*, std::string> text_;
};

struct PlanOptions {
  bool scoring = true;           // false: count mode, every part a filter
  FilterCache* cache = nullptr;  // null: no caching
  bool dry_run = false;          // explain: peek at the cache, change nothing
  uint64_t generation = 0;       // of the index, for cache keys
  bool deletes = false;          // the segment's matches are read through its live docs
};

std::unique_ptr<DocCursor> plan_segment(const PreparedQuery& query, const SegmentReader& segment,
                                        const PlanOptions& options);
// With scores: the clauses of a top-level OR, each planned on its own, for
// collectors that drive the clauses themselves (query/max_score.h). An AND
// of one OR and negations, (a OR b) -c, gives the OR's clauses and the
// negations as a filter of excluded docs; any other root is one clause, the
// whole plan.
struct SegmentClauses {
  std::vector<std::unique_ptr<DocCursor>> clauses;
  std::unique_ptr<DocCursor> excluded;  // null: none
};
// How many clauses plan_segment_clauses gives for a disjunction (a
// top-level OR, or an AND of one OR and negations); 0 for any other root.
size_t disjunction_width(const PreparedQuery& query);
// Whether the query is one term, alone or ANDed with negations only (cover
// NOT xylography), which plan_segment_clauses gives as the term's clause
// with the negations as exclusions.
bool is_term_minus_exclusions(const PreparedQuery& query);
// Above this many clauses a disjunction is scored into a bitset rather than
// pruned (the planner's threshold for scored bitset ORs).
inline constexpr size_t kMaxPrunedClauses = 16;
// A term minus exclusions with at most this many docs in a segment is
// ranked there scoring every match, which counts them too, rather than
// pruned beside a count that probes the exclusions again.
inline constexpr uint64_t kTermScoredWholeUpTo = 1024;
SegmentClauses plan_segment_clauses(const PreparedQuery& query, const SegmentReader& segment, const PlanOptions& options);

}  // namespace fts
