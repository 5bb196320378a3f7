// The postings of a phrase's unique tokens in one field, moved together to
// the docs that hold every token: the rarest list leads, the two rarest
// are merged where they are of like length (merge_align.h). A phrase
// approximates its matches on one of these and reads positions from them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "index/format/postings.h"
#include "query/merge_align.h"

namespace fts {

class TokenConjunction {
 public:
  TokenConjunction() = default;
  // One cursor per unique token, not yet moved; each is moved to its first
  // doc here.
  explicit TokenConjunction(std::vector<PostingsCursor> cursors) : cursors_(std::move(cursors)) {
    order_.resize(cursors_.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](uint32_t a, uint32_t b) { return cursors_[a].cost() < cursors_[b].cost(); });
    for (auto& c : cursors_) c.next();
    merge_pair_ = order_.size() >= 2 && merge_pays(lead().cost(), cursors_[order_[1]].cost());
  }

  size_t size() const { return cursors_.size(); }
  // By unique token, in the order given.
  PostingsCursor& operator[](size_t u) { return cursors_[u]; }
  const std::vector<PostingsCursor>& cursors() const { return cursors_; }
  PostingsCursor& lead() { return cursors_[order_[0]]; }
  const PostingsCursor& lead() const { return cursors_[order_[0]]; }

  // The first doc from the lead's on that every token holds, each moved
  // there; kNoMoreDocs when none.
  DocId align() {
    const size_t n = order_.size();
    if (merge_pair_) {
      return merge_align(lead(), cursors_[order_[1]], n, [&](size_t i) -> PostingsCursor& { return at(i); });
    }
    DocId candidate = lead().doc();
    for (size_t i = 1; i < n && candidate != kNoMoreDocs;) {
      PostingsCursor& c = at(i);
      DocId d = c.doc();
      if (d < candidate) d = c.advance(candidate);
      if (d == candidate) {
        ++i;
      } else if (d == kNoMoreDocs) {
        return kNoMoreDocs;
      } else {
        candidate = lead().advance(d);
        i = 1;
      }
    }
    return candidate;
  }
  // align() from target on (the lead moved there first when short of it).
  DocId align_from(DocId target) {
    if (lead().doc() < target) lead().advance(target);
    return align();
  }
  // Moves each token to target once, rarest first: target when every token
  // holds it, else the doc of the first token that passed it (which may
  // lack the others). Cursors already beyond target stay where they are.
  DocId step(DocId target) {
    for (uint32_t i : order_) {
      PostingsCursor& c = cursors_[i];
      DocId d = c.doc();
      if (d < target) d = c.advance(target);
      if (d != target) return d;
    }
    return target;
  }

 private:
  PostingsCursor& at(size_t i) { return cursors_[order_[i]]; }  // i-th rarest

  std::vector<PostingsCursor> cursors_;
  std::vector<uint32_t> order_;  // cursors_ indices by ascending cost
  bool merge_pair_ = false;      // align() merges the two rarest
};

}  // namespace fts
