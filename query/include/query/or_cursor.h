// Union by a binary min-heap of the children on their current docs. The
// score of a doc is the sum over the children on it, found by walking the
// heap's top region (every child on the minimum is reachable from the root
// through children on the minimum), and added up in the children's order:
// a float sum depends on its order, and a doc must score the same to the
// bit whichever segment or shard holds it (whose heaps differ).
// Under an AND it iterates two-phase when a child does (a phrase): docs
// are then candidates, confirmed only once every other child of the AND
// holds them.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "query/doc_cursor.h"

namespace fts {

class OrCursor final : public DocCursor {
 public:
  // children: >= 2.
  explicit OrCursor(std::vector<std::unique_ptr<DocCursor>> children) : children_(std::move(children)) {
    heap_.reserve(children_.size());
    on_doc_.reserve(children_.size());
    for (uint32_t i = 0; i < children_.size(); ++i) heap_.push_back({children_[i].get(), i});
    for (size_t i = heap_.size() / 2; i-- > 0;) sift_down(i);
    doc_ = heap_[0].cursor->doc();
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    const DocId current = doc_;
    while (heap_[0].cursor->doc() == current) {
      heap_[0].cursor->next();
      sift_down(0);
    }
    return doc_ = heap_[0].cursor->doc();
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    while (heap_[0].cursor->doc() < target) {
      heap_[0].cursor->advance(target);
      sift_down(0);
    }
    return doc_ = heap_[0].cursor->doc();
  }
  uint64_t cost() const override {
    uint64_t c = 0;
    for (const auto& child : children_) c += child->cost();
    return c;
  }
  uint64_t work() const override { return sum_work(children_); }
  float score() override {
    on_doc_.clear();
    collect_on_doc(0);
    // Few children share a doc: an insertion sort into clause order.
    for (size_t i = 1; i < on_doc_.size(); ++i) {
      for (size_t j = i; j > 0 && on_doc_[j - 1] > on_doc_[j]; --j) std::swap(on_doc_[j - 1], on_doc_[j]);
    }
    float s = 0;
    for (uint32_t i : on_doc_) {
      if (!approximate_ || children_[i]->confirm()) s += children_[i]->score();
    }
    return s;
  }
  float max_score() override { return sum_max_score(children_); }
  Bound block_bound(DocId target) override { return sum_block_bounds(children_, target); }
  // Below doc() nothing matches. From doc() on each child is asked, not
  // doc() trusted: a two-phase child (an excluded phrase) sits on a
  // candidate that its contains() confirms.
  bool contains(DocId target) override {
    if (target < doc_) return false;
    bool found = false;  // every child is probed, so each stays in step
    for (const auto& c : children_) found = c->contains(target) || found;
    return found;
  }
  // Two-phase when any child is: the other children stay exact, so a doc
  // an exact child is on needs no confirming.
  bool approximate() override {
    for (const auto& c : children_) approximate_ = c->approximate() || approximate_;
    return approximate_;
  }
  bool confirm() override {
    if (!approximate_ || doc_ == kNoMoreDocs) return true;
    on_doc_.clear();
    collect_on_doc(0);
    for (uint32_t i : on_doc_) {
      if (children_[i]->confirm()) return true;
    }
    return false;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, approximate_ ? "or(heap, two-phase)" : "or(heap)", cost());
    for (const auto& c : children_) c->explain(out, depth + 1);
  }

 private:
  struct Entry {
    DocCursor* cursor;
    uint32_t clause;  // index into children_
  };

  void collect_on_doc(size_t i) {
    if (i >= heap_.size() || heap_[i].cursor->doc() != doc_) return;
    on_doc_.push_back(heap_[i].clause);
    collect_on_doc(2 * i + 1);
    collect_on_doc(2 * i + 2);
  }
  void sift_down(size_t i) {
    const size_t n = heap_.size();
    const Entry item = heap_[i];
    const DocId d = item.cursor->doc();
    for (;;) {
      size_t l = 2 * i + 1;
      if (l >= n) break;
      size_t r = l + 1;
      size_t m = (r < n && heap_[r].cursor->doc() < heap_[l].cursor->doc()) ? r : l;
      if (heap_[m].cursor->doc() >= d) break;
      heap_[i] = heap_[m];
      i = m;
    }
    heap_[i] = item;
  }

  std::vector<std::unique_ptr<DocCursor>> children_;
  std::vector<Entry> heap_;
  std::vector<uint32_t> on_doc_;  // score()'s scratch: the clauses on doc_
  bool approximate_ = false;
};

}  // namespace fts
