#include "query/window_scorer.h"

#include <algorithm>
#include <array>
#include <bit>

namespace fts {

namespace {

// 2,048 docs: the window's scores (8 KiB) and match bits stay in L1.
constexpr uint32_t kWindow = 2048;

}  // namespace

bool scoring_all_pays(const std::vector<std::unique_ptr<DocCursor>>& clauses) {
  struct Clause {
    float bound;
    uint64_t cost;
  };
  std::vector<Clause> live;
  live.reserve(clauses.size());
  uint64_t postings = 0;
  uint64_t beyond = 0;  // what counting the clauses reads beyond their matches
  float best = 0;
  for (const auto& c : clauses) {
    if (c->doc() == kNoMoreDocs) continue;
    const uint64_t work = c->work();
    beyond += work - std::min(work, c->cost());
    live.push_back({c->max_score(), c->cost()});
    postings += c->cost();
    best = std::max(best, live.back().bound);
  }
  // Pruning beside a count reads a conjunction or a phrase twice (the
  // ranking finds its matches again), which costs more than scoring
  // every match once where that reading goes well beyond the matches.
  if (beyond >= postings) return true;
  std::sort(live.begin(), live.end(), [](const Clause& a, const Clause& b) { return a.bound < b.bound; });
  double bounds = 0;
  uint64_t prunable = 0;
  for (const Clause& c : live) {
    bounds += c.bound;
    if (bounds > best) break;
    prunable += c.cost;
  }
  return static_cast<double>(prunable) < 0.7 * static_cast<double>(postings);
}

void collect_all_scored(std::vector<std::unique_ptr<DocCursor>>& clauses, DocCursor* excluded,
                        const IndexReader::Segment& segment, TopK& top, HitCount& count, Interrupt& interrupt) {
  // Valid where the window's bit is set; zeroed once, as score_window
  // reads a slot before masking out what it held.
  std::array<float, kWindow> scores{};
  std::array<uint64_t, kWindow / 64> matched{};
  for (;;) {
    DocId base = kNoMoreDocs;
    for (const auto& c : clauses) base = std::min(base, c->doc());
    if (base == kNoMoreDocs) return;
    // Windows start at the first doc left: stretches no clause holds cost
    // nothing.
    const uint64_t end = std::min<uint64_t>(uint64_t{base} + kWindow, kNoMoreDocs);
    for (const auto& c : clauses) c->score_window(base, static_cast<DocId>(end), scores.data(), matched.data());
    for (uint32_t w = 0; w < matched.size(); ++w) {
      for (uint64_t bits = matched[w]; bits != 0; bits &= bits - 1) {
        const uint32_t i = w * 64 + static_cast<uint32_t>(std::countr_zero(bits));
        const DocId d = base + i;
        interrupt.tick();
        if (!segment.is_live(d) || (excluded && excluded->contains(d))) continue;
        ++count.hits;
        top.push(scores[i], segment.global(d));
      }
      matched[w] = 0;
    }
  }
}

}  // namespace fts
