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

#include <algorithm>
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
    if (heap_.empty()) return doc_ = kNoMoreDocs;  // no doc is competitive any more
    const DocId current = doc_;
    while (heap_[0].cursor->doc() == current) {
      heap_[0].cursor->next();
      sift_down(0);
    }
    return doc_ = heap_[0].cursor->doc();
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    if (heap_.empty()) return doc_ = kNoMoreDocs;
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
    for (size_t k = 0; k < non_essential_; ++k) {  // they lag: brought to the doc
      DocCursor* c = children_[by_bound_[k]].get();
      if (c->doc() < doc_) c->advance(doc_);
      if (c->doc() == doc_) on_doc_.push_back(by_bound_[k]);
    }
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
  // Each child scores its matches of the window in turn, in clause order
  // (the order score() sums in), and the heap is rebuilt once after: no
  // heap step per match. While pruning (children out of the heap) or
  // two-phase, a match at a time.
  void score_window(DocId base, DocId end, float* scores, uint64_t* matched) override {
    if (non_essential_ > 0 || approximate_) return score_window_of(*this, base, end, scores, matched);
    if (doc_ >= end) return;
    for (const auto& c : children_) c->score_window(base, end, scores, matched);
    for (size_t i = heap_.size() / 2; i-- > 0;) sift_down(i);
    doc_ = heap_[0].cursor->doc();
  }
  float max_score() override { return sum_max_score(children_); }
  // MaxScore within the union: the children of least bound whose bounds
  // add up to less than score cannot make a doc competitive alone. They
  // leave the heap (non-essential), which then yields only docs that some
  // other child holds, and are advanced to those docs by score().
  bool set_min_competitive_score(float score) override {
    if (by_bound_.empty()) {
      bounds_.resize(children_.size());
      for (uint32_t i = 0; i < children_.size(); ++i) {
        bounds_[i] = children_[i]->max_score();
        by_bound_.push_back(i);
      }
      std::stable_sort(by_bound_.begin(), by_bound_.end(), [&](uint32_t a, uint32_t b) { return bounds_[a] < bounds_[b]; });
    }
    // The margin covers the rounding of a float sum of the children.
    const double margin = 1.0 + 4e-7 * static_cast<double>(children_.size() + 8);
    double sum = 0;
    size_t n = non_essential_;
    for (size_t k = 0; k < n; ++k) sum += bounds_[by_bound_[k]];
    while (n < by_bound_.size() && (sum + bounds_[by_bound_[n]]) * margin < score) sum += bounds_[by_bound_[n++]];
    if (n > non_essential_) {
      non_essential_ = n;
      heap_.clear();
      for (size_t k = n; k < by_bound_.size(); ++k) heap_.push_back({children_[by_bound_[k]].get(), by_bound_[k]});
      for (size_t i = heap_.size() / 2; i-- > 0;) sift_down(i);
    }
    return non_essential_ > 0;
  }
  // The children's bounds summed over a window that those at or before
  // target set; a child whose next match lies past it adds nothing (it
  // has no match there). Summing every child's block bound let a rare
  // clause, whose one block spans the segment, hold up every window of a
  // common one: open (open OR source OR software) was never pruned.
  Bound block_bound(DocId target) override {
    Bound sum{kNoMoreDocs, 0};
    auto add = [&](DocCursor& c) {
      const Bound b = c.block_bound(target);
      sum.end = std::min(sum.end, b.end);
      sum.score += b.score;
    };
    for (const auto& c : children_)
      if (c->doc() <= target) add(*c);
    // Then those ahead of target that reach into the window (each one in
    // can only narrow it).
    for (const auto& c : children_)
      if (c->doc() > target && c->doc() <= sum.end && c->doc() != kNoMoreDocs) add(*c);
    return sum;
  }
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
  // Once a minimum competitive score is set: the children by bound, lowest
  // first, and how many of them have left the heap.
  std::vector<uint32_t> by_bound_;
  std::vector<float> bounds_;
  size_t non_essential_ = 0;
  bool approximate_ = false;
};

}  // namespace fts
