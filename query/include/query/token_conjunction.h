// The postings of a phrase's unique tokens in one field, moved together to
// the docs that hold every token: the rarest list leads, the two rarest
// are merged where they are of like length (conjunction_steps.h). A phrase
// approximates its matches on one of these and reads positions from them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "index/format/postings.h"
#include "query/conjunction_steps.h"

namespace fts {

class TokenConjunction {
 public:
  // One cursor per unique token, not yet moved; each is moved to its first
  // doc here.
  explicit TokenConjunction(std::vector<PostingsCursor> cursors) : cursors_(std::move(cursors)) {
    order_.resize(cursors_.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](uint32_t a, uint32_t b) { return cursors_[a].cost() < cursors_[b].cost(); });
    for (auto& c : cursors_) c.next();
    merge_pair_ = order_.size() >= 2 && merge_pays(lead().cost(), at(1).cost());
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
    auto nth = [&](size_t i) -> PostingsCursor& { return at(i); };
    if (merge_pair_) return merge_align(lead(), at(1), order_.size(), nth);
    return leapfrog(order_.size(), nth, lead().doc());
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
    return step_each(order_.size(), [&](size_t i) -> PostingsCursor& { return at(i); }, target);
  }

 private:
  PostingsCursor& at(size_t i) { return cursors_[order_[i]]; }  // i-th rarest

  std::vector<PostingsCursor> cursors_;
  std::vector<uint32_t> order_;  // cursors_ indices by ascending cost
  bool merge_pair_ = false;      // align() merges the two rarest
};

}  // namespace fts
