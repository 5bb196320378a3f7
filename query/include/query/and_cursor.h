// Intersection by leapfrogging: the rarest child leads, every other child
// advance()s to the candidate, and a child that overshoots makes its doc the
// next candidate. advance() skips whole postings blocks, so very unequal
// sizes cost about the rarest list's length in block jumps. Children with a
// costly check (phrases) are iterated on their approximation and confirmed
// only on docs every child holds.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "query/doc_cursor.h"

namespace fts {

class AndCursor final : public DocCursor {
 public:
  // children: >= 2, none empty, in the query's order; reordered here by cost.
  explicit AndCursor(std::vector<std::unique_ptr<DocCursor>> children) : children_(std::move(children)) {
    for (auto& c : children_) in_query_order_.push_back(c.get());
    std::stable_sort(children_.begin(), children_.end(),
                     [](const auto& a, const auto& b) { return a->cost() < b->cost(); });
    for (auto& c : children_)
      if (c->approximate()) confirm_.push_back(c.get());
    align(children_[0]->doc());
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    return align(children_[0]->next());
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    return align(children_[0]->advance(target));
  }
  uint64_t cost() const override { return children_[0]->cost(); }
  uint64_t work() const override { return sum_work(children_); }
  // Summed in the query's order, not the cost order of this segment: a
  // float sum depends on its order, and a doc must score the same to the
  // bit whichever segment or shard holds it.
  float score() override {
    float s = 0;
    for (DocCursor* c : in_query_order_) s += c->score();
    return s;
  }
  float max_score() override { return sum_max_score(children_); }
  Bound block_bound(DocId target) override { return sum_block_bounds(children_, target); }
  bool contains(DocId target) override {
    if (target <= doc_) return target == doc_;
    for (const auto& c : children_)
      if (!c->contains(target)) return false;
    return true;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "and", cost());
    for (const auto& c : children_) c->explain(out, depth + 1);
  }

 private:
  // Smallest doc >= candidate (the lead's doc) that every child holds:
  // first on the children's approximations, then confirmed by the
  // two-phase children, rarest first.
  DocId align(DocId candidate) {
    DocCursor* lead = children_[0].get();
    const size_t n = children_.size();
  again:
    if (candidate == kNoMoreDocs) return doc_ = kNoMoreDocs;
    for (size_t i = 1; i < n; ++i) {
      DocCursor* c = children_[i].get();
      DocId d = c->doc();
      if (d < candidate) d = c->advance(candidate);
      if (d > candidate) {
        if (d == kNoMoreDocs) return doc_ = kNoMoreDocs;
        candidate = lead->advance(d);
        goto again;
      }
    }
    for (DocCursor* c : confirm_) {
      if (!c->confirm()) {
        candidate = lead->next();
        goto again;
      }
    }
    return doc_ = candidate;
  }

  std::vector<std::unique_ptr<DocCursor>> children_;
  std::vector<DocCursor*> in_query_order_;
  std::vector<DocCursor*> confirm_;  // the two-phase children, by cost
};

}  // namespace fts
