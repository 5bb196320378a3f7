// The best k (score, doc) pairs by a bounded min-heap: the root is the worst
// kept hit, so most docs are rejected with one comparison. Order: higher
// score first, equal scores by lower doc id.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "query/searcher.h"

namespace fts {

class TopK {
 public:
  explicit TopK(size_t k) : k_(k) { heap_.reserve(std::min<size_t>(k, 4096)); }

  // True when a ranks before b.
  static bool better(const ScoredDoc& a, const ScoredDoc& b) {
    return a.score > b.score || (a.score == b.score && a.doc < b.doc);
  }

  void push(float score, DocId doc) {
    if (k_ == 0) return;
    ScoredDoc hit{doc, score};
    if (heap_.size() < k_) {
      heap_.push_back(hit);
      std::push_heap(heap_.begin(), heap_.end(), better);
    } else if (better(hit, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), better);
      heap_.back() = hit;
      std::push_heap(heap_.begin(), heap_.end(), better);
    }
  }

  bool full() const { return heap_.size() >= k_; }
  // The score a new hit must beat to be kept (hits come in ascending doc
  // order, so an equal score loses the tie): the worst kept score once
  // full, -infinity before.
  float threshold() const { return full() && k_ > 0 ? heap_.front().score : -std::numeric_limits<float>::infinity(); }

  // The kept hits, best first; leaves the collector empty.
  std::vector<ScoredDoc> take_sorted() {
    std::sort(heap_.begin(), heap_.end(), better);
    return std::move(heap_);
  }

 private:
  size_t k_;
  std::vector<ScoredDoc> heap_;  // heap ordered by better(): front = worst kept
};

}  // namespace fts
