#include "query/collapse.h"

#include <algorithm>

#include "query/top_k.h"

namespace fts {

void ClusterCollector::take(size_t wanted, std::vector<ScoredDoc>& hits, std::vector<uint32_t>& folded) {
  std::vector<const Best*> order;
  order.reserve(best_.size());
  for (const auto& [cluster, best] : best_) order.push_back(&best);
  auto before = [&](const Best* a, const Best* b) {
    return order_ == SearchRequest::Order::kScore ? TopK::better(a->hit, b->hit) : a->hit.doc < b->hit.doc;
  };
  const size_t n = std::min(wanted, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), before);
  hits.clear();
  folded.clear();
  for (size_t i = 0; i < n; ++i) {
    hits.push_back(order[i]->hit);
    folded.push_back(order[i]->matches - 1);
  }
}

}  // namespace fts
