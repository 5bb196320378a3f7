// Union by a binary min-heap of the children on their current docs. The
// score of a doc is the sum over the children on it, found by walking the
// heap's top region (every child on the minimum is reachable from the root
// through children on the minimum).
#pragma once

#include <memory>
#include <vector>

#include "query/doc_cursor.h"

namespace fts {

class OrCursor final : public DocCursor {
 public:
  // children: >= 2.
  explicit OrCursor(std::vector<std::unique_ptr<DocCursor>> children) : children_(std::move(children)) {
    heap_.reserve(children_.size());
    for (auto& c : children_) heap_.push_back(c.get());
    for (size_t i = heap_.size() / 2; i-- > 0;) sift_down(i);
    doc_ = heap_[0]->doc();
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    const DocId current = doc_;
    while (heap_[0]->doc() == current) {
      heap_[0]->next();
      sift_down(0);
    }
    return doc_ = heap_[0]->doc();
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    while (heap_[0]->doc() < target) {
      heap_[0]->advance(target);
      sift_down(0);
    }
    return doc_ = heap_[0]->doc();
  }
  uint64_t cost() const override {
    uint64_t c = 0;
    for (const auto& child : children_) c += child->cost();
    return c;
  }
  uint64_t work() const override { return sum_work(children_); }
  float score() override { return score_from(0); }
  float max_score() override { return sum_max_score(children_); }
  Bound block_bound(DocId target) override { return sum_block_bounds(children_, target); }
  bool contains(DocId target) override {
    if (target <= doc_) return target == doc_;
    bool found = false;  // every child is probed, so each stays in step
    for (const auto& c : children_) found = c->contains(target) || found;
    return found;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "or(heap)", cost());
    for (const auto& c : children_) c->explain(out, depth + 1);
  }

 private:
  float score_from(size_t i) {
    if (i >= heap_.size() || heap_[i]->doc() != doc_) return 0;
    return heap_[i]->score() + score_from(2 * i + 1) + score_from(2 * i + 2);
  }
  void sift_down(size_t i) {
    const size_t n = heap_.size();
    DocCursor* item = heap_[i];
    const DocId d = item->doc();
    for (;;) {
      size_t l = 2 * i + 1;
      if (l >= n) break;
      size_t r = l + 1;
      size_t m = (r < n && heap_[r]->doc() < heap_[l]->doc()) ? r : l;
      if (heap_[m]->doc() >= d) break;
      heap_[i] = heap_[m];
      i = m;
    }
    heap_[i] = item;
  }

  std::vector<std::unique_ptr<DocCursor>> children_;
  std::vector<DocCursor*> heap_;
};

}  // namespace fts
