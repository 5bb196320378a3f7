#include "query/max_score.h"

#include <algorithm>
#include <limits>

namespace fts {

void collect_max_score(std::vector<std::unique_ptr<DocCursor>>& clauses, const IndexReader::Segment& segment, TopK& top,
                       uint64_t count_exactly, HitCount& count, Interrupt& interrupt) {
  struct Clause {
    DocCursor* cursor;
    float bound;
  };
  std::vector<Clause> cs;
  cs.reserve(clauses.size());
  for (auto& c : clauses)
    if (c->doc() != kNoMoreDocs) cs.push_back({c.get(), c->max_score()});
  std::stable_sort(cs.begin(), cs.end(), [](const Clause& a, const Clause& b) { return a.bound < b.bound; });
  const size_t n = cs.size();
  // A doc's score is a float sum in whatever order its clauses come, so the
  // bounds get a margin of a few ulps per clause.
  const double margin = 1.0 + 4e-7 * static_cast<double>(n + 8);
  std::vector<float> prefix(n);  // prefix[i]: bound of the clauses 0..i together
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    sum += std::max(0.0f, cs[i].bound);
    prefix[i] = static_cast<float>(sum * margin);
  }

  size_t essential = 0;  // cs[0 .. essential) are non-essential
  float threshold = -std::numeric_limits<float>::infinity();
  auto update = [&] {
    if (count.hits < count_exactly) return;
    threshold = top.threshold();
    while (essential < n && prefix[essential] <= threshold) ++essential;
    if (essential > 0) count.exact = false;
  };
  update();
  while (essential < n) {
    DocId d = kNoMoreDocs;
    for (size_t i = essential; i < n; ++i) d = std::min(d, cs[i].cursor->doc());
    if (d == kNoMoreDocs) return;
    ++count.hits;
    float score = 0;
    for (size_t i = essential; i < n; ++i) {
      DocCursor* c = cs[i].cursor;
      if (c->doc() == d) score += c->score();
    }
    bool dropped = false;
    for (size_t i = essential; i-- > 0;) {
      if (score + prefix[i] <= threshold) {
        dropped = true;
        break;
      }
      DocCursor* c = cs[i].cursor;
      if (c->doc() < d) c->advance(d);
      if (c->doc() == d) score += c->score();
    }
    if (!dropped) top.push(score, segment.global(d));
    interrupt.tick();
    for (size_t i = essential; i < n; ++i) {
      DocCursor* c = cs[i].cursor;
      if (c->doc() == d) c->next();
    }
    update();
  }
  // Every clause left is non-essential: whatever they hold cannot make the
  // top k, and is not counted.
  for (const Clause& c : cs)
    if (c.cursor->doc() != kNoMoreDocs) count.exact = false;
}

}  // namespace fts
