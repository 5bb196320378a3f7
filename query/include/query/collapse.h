// Near-duplicate collapse of a search: every match is scored and kept only
// if it is the best of its cluster (the cluster id the index stores per doc,
// index/format/fingerprints.h), with a count of the matches of each
// cluster. The count after collapsing (the clusters with a match) is exact,
// so every match is visited: no top-k pruning.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "query/searcher.h"

namespace fts {

class ClusterCollector {
 public:
  explicit ClusterCollector(SearchRequest::Order order) : order_(order) {}

  // Matches arrive in ascending doc order.
  void add(DocId cluster, DocId doc, float score) {
    auto [it, fresh] = best_.try_emplace(cluster, Best{ScoredDoc{doc, score}, 0});
    ++it->second.matches;
    if (!fresh && order_ == SearchRequest::Order::kScore && score > it->second.hit.score) {
      it->second.hit = ScoredDoc{doc, score};  // an equal score keeps the lower doc
    }
  }
  uint64_t clusters() const { return best_.size(); }
  // The best wanted clusters' hits in order, each with the matches folded
  // into it (its cluster's matches but itself).
  void take(size_t wanted, std::vector<ScoredDoc>& hits, std::vector<uint32_t>& folded);

 private:
  struct Best {
    ScoredDoc hit;
    uint32_t matches;
  };
  SearchRequest::Order order_;
  std::unordered_map<DocId, Best> best_;  // by cluster id
};

}  // namespace fts
