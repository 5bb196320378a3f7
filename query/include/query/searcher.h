// Evaluates analyzed queries over an open index: plans each query into a
// cursor tree per segment (term, AND, OR, AND-NOT, phrase, all-docs), counts
// or ranks the matches (BM25, k1 = 1.2, b = 0.75), and keeps a Roaring-bitmap
// cache of recurring costly subqueries. Thread-safe: many threads may search
// one Searcher.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fts/index.h"  // CacheStats
#include "index/reader/index_reader.h"
#include "query/collection_stats.h"
#include "query/interrupt.h"
#include "query/query_node.h"

namespace fts {

struct ScoredDoc {
  DocId doc = 0;   // global doc id
  float score = 0;
};

inline constexpr uint64_t kExactHitCount = UINT64_MAX;

struct SearchRequest {
  size_t limit = 10;
  size_t offset = 0;
  enum class Order { kScore, kDocId } order = Order::kScore;
  Interrupt* interrupt = nullptr;  // time budget and cancellation; null: none
  // Matches counted exactly before ranking may skip docs that cannot make
  // the top (Lucene's totalHitsThreshold); beyond it total_hits is a lower
  // bound. kExactHitCount: always exact.
  uint64_t total_hits_threshold = kExactHitCount;
  // Keep the best hit of each near-duplicate cluster (query/collapse.h);
  // counts are then exact whatever the threshold.
  bool collapse = false;
  // Segments searched at once (the caller's thread among them).
  unsigned threads = 1;
  // BM25 statistics to score with instead of the index's (a distributed
  // search's global ones); null: the index's.
  const CollectionStats* stats = nullptr;
};

struct SearchResponse {
  uint64_t total_hits = 0;
  bool total_hits_exact = true;  // false: total_hits is a lower bound
  std::vector<ScoredDoc> hits;   // at most limit, after offset
  // Collapsing: the clusters with a match, and per hit the matches of its
  // cluster folded into it.
  uint64_t collapsed_hits = 0;
  std::vector<uint32_t> duplicates;
};

struct SearcherOptions {
  size_t cache_bytes = 64u << 20;  // 0 disables the filter cache
  // Postings a recurring subquery must read before a bitmap of it pays off.
  uint64_t cache_min_work = 20000;
};

class Searcher {
 public:
  explicit Searcher(std::shared_ptr<const IndexReader> index, size_t cache_bytes = 64u << 20);
  Searcher(std::shared_ptr<const IndexReader> index, SearcherOptions options);
  // Over a newer snapshot of previous's index, sharing its filter cache:
  // entries of the segments both snapshots hold stay useful.
  Searcher(std::shared_ptr<const IndexReader> index, const Searcher& previous);
  ~Searcher();

  // query may be null (a query that analyzed to nothing): no hits.
  SearchResponse search(const QueryNode* query, const SearchRequest& request) const;
  uint64_t count(const QueryNode* query, Interrupt* interrupt = nullptr, unsigned threads = 1) const;
  // All matching global doc ids, ascending.
  void matching_docs(const QueryNode* query, std::vector<DocId>& out, Interrupt* interrupt = nullptr,
                     unsigned threads = 1) const;
  // The plan: one line per cursor with its cost and cache use.
  std::string explain(const QueryNode* query) const;
  CacheStats cache_stats() const;

  const IndexReader& index() const { return *index_; }

 private:
  struct Impl;
  std::shared_ptr<const IndexReader> index_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fts
