#include "query/collapse.h"

#include <algorithm>

#include "query/top_k.h"

namespace fts {

void ClusterCollector::grow() {
  std::vector<Slot> old(slots_.size() * 2, Slot{kEmpty, 0, 0, 0});
  old.swap(slots_);
  for (const Slot& s : old) {
    if (s.cluster != kEmpty) find(s.cluster) = s;
  }
}

void ClusterCollector::take(size_t wanted, std::vector<ScoredDoc>& hits, std::vector<uint32_t>& folded) {
  std::vector<const Slot*> order;
  order.reserve(used_);
  for (const Slot& s : slots_) {
    if (s.cluster != kEmpty) order.push_back(&s);
  }
  auto before = [&](const Slot* a, const Slot* b) {
    return order_ == SearchRequest::Order::kScore ? TopK::better({a->doc, a->score}, {b->doc, b->score})
                                                  : a->doc < b->doc;
  };
  const size_t n = std::min(wanted, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(n), order.end(), before);
  hits.clear();
  folded.clear();
  for (size_t i = 0; i < n; ++i) {
    hits.push_back({order[i]->doc, order[i]->score});
    folded.push_back(order[i]->matches - 1);
  }
}

}  // namespace fts
