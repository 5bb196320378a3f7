// Near-duplicate collapse of a search: every match is scored and kept only
// if it is the best of its cluster (the cluster id the index stores per doc,
// index/format/fingerprints.h), with a count of the matches of each
// cluster. The count after collapsing (the clusters with a match) is exact,
// so every match is visited: no top-k pruning.
#pragma once

#include <cstdint>
#include <vector>

#include "query/searcher.h"

namespace fts {

class ClusterCollector {
 public:
  explicit ClusterCollector(SearchRequest::Order order) : order_(order) {
    slots_.assign(kInitialSlots, Slot{kEmpty, 0, 0, 0});
  }

  // Matches arrive in ascending doc order.
  void add(DocId cluster, DocId doc, float score) {
    Slot& slot = find(cluster);
    if (slot.cluster == kEmpty) {
      slot = Slot{cluster, doc, score, 1};
      if (++used_ * 2 > slots_.size()) grow();  // at most half full: probes stay short
      return;
    }
    ++slot.matches;
    if (order_ == SearchRequest::Order::kScore && score > slot.score) {  // an equal score keeps the lower doc
      slot.doc = doc;
      slot.score = score;
    }
  }
  uint64_t clusters() const { return used_; }
  // The best wanted clusters' hits in order, each with the matches folded
  // into it (its cluster's matches but itself).
  void take(size_t wanted, std::vector<ScoredDoc>& hits, std::vector<uint32_t>& folded);

 private:
  // An open-addressing table (linear probing) in one vector: no allocation
  // per cluster, one per doubling.
  struct Slot {
    DocId cluster;  // kEmpty: free
    DocId doc;
    float score;
    uint32_t matches;
  };
  static constexpr DocId kEmpty = kNoMoreDocs;  // no cluster id is
  static constexpr size_t kInitialSlots = 64;

  Slot& find(DocId cluster) {
    const size_t mask = slots_.size() - 1;
    size_t i = static_cast<size_t>((uint64_t(cluster) * 0x9e3779b97f4a7c15ull) >> 32) & mask;
    while (slots_[i].cluster != kEmpty && slots_[i].cluster != cluster) i = (i + 1) & mask;
    return slots_[i];
  }
  void grow();

  SearchRequest::Order order_;
  std::vector<Slot> slots_ = {};  // a power of two of them
  size_t used_ = 0;
};

}  // namespace fts
