// One term's postings in one segment. Scores with BM25 when given a weight;
// the field length comes from the segment's norms.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <utility>

#include "index/reader/segment_reader.h"
#include "query/bm25.h"
#include "query/doc_cursor.h"
#include "query/recycled.h"

namespace fts {

class TermCursor final : public DocCursor {
 public:
  // weight null: planned without scores. label is for explain() only.
  TermCursor(PostingsCursor postings, const SegmentReader* segment, Field field, const Bm25Weight* weight,
             std::string_view label)
      : postings_(std::move(postings)), segment_(segment), field_(field), weight_(weight), label_(label) {
    doc_ = postings_.next();
  }
  // The term's postings in segment, made in place: a PostingsCursor holds
  // a block of docs and freqs (1 KB), which the constructor above copies,
  // for every term of a query in every segment.
  TermCursor(const SegmentReader& segment, Field field, const TermInfo& info, const Bm25Weight* weight,
             std::string_view label)
      : postings_(segment.cursor(field, info)), segment_(&segment), field_(field), weight_(weight), label_(label) {
    doc_ = postings_.next();
  }
  static void* operator new(size_t size) { return Recycled<TermCursor>::allocate(size); }
  static void operator delete(void* p, size_t size) { Recycled<TermCursor>::release(p, size); }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    return doc_ = postings_.next();
  }
  DocId advance(DocId target) override {
    if (target <= doc_ && doc_ != kNoMoreDocs) return doc_;
    if (doc_ == kNoMoreDocs) return doc_;
    return doc_ = postings_.advance(target);
  }
  uint64_t cost() const override { return postings_.cost(); }
  // PostingsCursor::align_pair() of two terms.
  static DocId align_pair(TermCursor& a, TermCursor& b) {
    const DocId d = PostingsCursor::align_pair(a.postings_, b.postings_);
    a.doc_ = a.postings_.doc();
    b.doc_ = b.postings_.doc();
    return d;
  }
  float score() override {
    if (!weight_) return 0;
    return score_of(postings_.freq(), doc_);
  }
  // score() of doc, whose freq is freq (weighted terms only).
  float score_of(uint32_t freq, DocId doc) const { return weight_->score(freq, segment_->field_length(field_, doc)); }
  // PostingsCursor::take_common() of two terms.
  template <class Take>
  static size_t take_common(TermCursor& a, TermCursor& b, DocId* docs, uint32_t* freqs_a, uint32_t* freqs_b,
                            size_t max, Take&& take) {
    const size_t n = PostingsCursor::take_common(a.postings_, b.postings_, docs, freqs_a, freqs_b, max, take);
    a.doc_ = a.postings_.doc();
    b.doc_ = b.postings_.doc();
    return n;
  }
  // doc()'s freq, for scoring it later (AndCursor::take_scored()).
  uint32_t freq() { return postings_.freq(); }
  // Adds to scores[i] the score() docs[i] has with freq freqs[i].
  void add_scores(const DocId* docs, const uint32_t* freqs, float* scores, size_t n) const {
    if (!weight_) return;  // score() is 0
    for (size_t i = 0; i < n; ++i) scores[i] += score_of(freqs[i], docs[i]);
  }
  // The best freq at the shortest length of the segment, or the term's
  // impact where the postings have impacts for this field (whichever is
  // lower; both bound every score). Computed once.
  float max_score() override {
    if (!weight_) return 0;
    if (max_score_ < 0) {
      max_score_ = weight_->score(postings_.max_freq(), std::max(1u, segment_->shortest_field_length(field_)));
      if (column_ >= 0) {
        max_score_ = std::min(max_score_,
                              weight_->impact_bound(postings_.term_impact(column_), postings_.reference_average(column_)));
      }
    }
    return max_score_;
  }
  // From the block's impact in the skip data; a list without impacts for
  // this field (format 2, or fewer than 128 docs) is one stretch. Impacts
  // are rounded up, so a bound from one alone sits just above the score of
  // the block's best doc, and a top k whose k-th score ties at that score
  // could never rule the block out. Where the block's freqs are small, the
  // impact gives for each freq the shortest length a doc of that freq can
  // have there instead: the bound is then the best score of such docs,
  // which an equal k-th score rules out (it loses to the lower id kept).
  Bound block_bound(DocId target) override {
    if (!weight_ || doc_ == kNoMoreDocs) return {kNoMoreDocs, 0};
    if (column_ < 0) return {kNoMoreDocs, max_score()};
    constexpr uint32_t kMaxExactFreq = 2;
    const PostingsCursor::Bound b = postings_.block_bound(target, column_);
    const float reference = postings_.reference_average(column_);
    float bound = std::min(max_score(), weight_->impact_bound(b.impact, reference));
    if (b.max_freq <= kMaxExactFreq) {
      // Blocks repeat a few (impact, max freq) pairs: each is solved once.
      const uint32_t key = uint32_t(b.impact) << 4 | b.max_freq;
      ExactBound& cached = exact_bounds_[(key ^ key >> 7) % exact_bounds_.size()];
      if (cached.key != key) {
        const uint32_t shortest = std::max(1u, segment_->shortest_field_length(field_));
        float exact = 0;
        for (uint32_t tf = 1; tf <= b.max_freq; ++tf) {
          exact = std::max(exact, weight_->score(tf, std::max(shortest, shortest_length_within(b.impact, tf, reference))));
        }
        cached = {key, exact};
      }
      bound = std::min(bound, cached.bound);
    }
    return {b.last, bound};
  }
  // Blocks whose impact alone rules them out are passed in one loop over
  // the skip data; the first that it does not is left to block_bound().
  DocId skip_ruled_out(DocId target, float threshold) override {
    if (!weight_ || column_ < 0 || doc_ == kNoMoreDocs) return target;
    if (threshold != limit_threshold_) {
      limit_threshold_ = threshold;
      limit_impact_ = highest_impact_within(threshold);
    }
    if (limit_impact_ < 0) return target;
    return postings_.skip_blocks_within(target, column_, static_cast<uint16_t>(limit_impact_));
  }
  void score_window(DocId base, DocId end, float* scores, uint64_t* matched) override {
    score_window_of(*this, base, end, scores, matched);
  }
  std::optional<uint64_t> known_count() const override { return postings_.remaining(); }
  uint64_t count_remaining() override {
    const uint64_t n = postings_.remaining();
    doc_ = kNoMoreDocs;
    return n;
  }
  size_t take(DocId* out, size_t max) override {
    const size_t n = postings_.read_docs(out, max);
    doc_ = postings_.doc();
    return n;
  }
  size_t take_through(DocId last, DocId* out, size_t max) override {
    if (max < kBlockSize) return DocCursor::take_through(last, out, max);
    const size_t n = postings_.read_docs_through(last, out);
    doc_ = postings_.doc();
    return n;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "term " + std::string(label_), cost());
  }

 private:
  PostingsCursor postings_;
  const SegmentReader* segment_;
  Field field_;
  const Bm25Weight* weight_;
  std::string_view label_;
  int column_ = postings_.impact_column(field_);  // of the impacts for field_; -1: none
  float max_score_ = -1;                         // not yet computed
  struct ExactBound {
    uint32_t key = UINT32_MAX;  // impact << 4 | max freq; none yet
    float bound = 0;
  };
  std::array<ExactBound, 16> exact_bounds_;  // block_bound's, by key
  // skip_ruled_out()'s: the highest impact whose bound is at most
  // limit_threshold_ (-1: none).
  float limit_threshold_ = -1;
  int32_t limit_impact_ = -1;
  int32_t highest_impact_within(float threshold) const {
    const float reference = postings_.reference_average(column_);
    if (!(weight_->impact_bound(0, reference) <= threshold)) return -1;
    int32_t lo = 0, hi = 65535;  // impact_bound(lo) <= threshold; it rises with the impact
    while (lo < hi) {
      const int32_t mid = lo + (hi - lo + 1) / 2;
      if (weight_->impact_bound(static_cast<uint16_t>(mid), reference) <= threshold)
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  }
};

}  // namespace fts
