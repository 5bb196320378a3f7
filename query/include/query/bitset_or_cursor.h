// Union of many children, materialised: each child is drained into a bitset
// over the segment (and, when scoring, its scores summed into a per-doc
// array), then the set bits are iterated. Beats the heap when there are many
// children, since each posting costs one bit write instead of a heap sift.
#pragma once

#include <bit>
#include <memory>
#include <string>
#include <vector>

#include "fts/errors.h"
#include "query/doc_cursor.h"

namespace fts {

class BitsetOrCursor final : public DocCursor {
 public:
  // segment names the segment in the error a damaged posting raises.
  BitsetOrCursor(std::vector<std::unique_ptr<DocCursor>> children, uint32_t doc_count, bool scoring,
                 const std::string& segment = "segment")
      : words_((static_cast<size_t>(doc_count) + 63) / 64, 0) {
    if (scoring) scores_.assign(doc_count, 0.0f);
    for (auto& c : children) {
      work_ += c->work();
      if (scoring) max_score_ += c->max_score();
      // Damaged postings can name a doc the segment does not have.
      auto check = [&](DocId d) {
        if (d >= doc_count && d != kNoMoreDocs) {
          throw IndexError(segment, "postings hold doc " + std::to_string(d) + " of " + std::to_string(doc_count));
        }
      };
      if (scoring) {  // the segment as one window
        c->score_window(0, doc_count, scores_.data(), words_.data());
        check(c->doc());
        continue;
      }
      // Without scores a batch at a time (a term copies a block), its
      // ascending ids checked by the last.
      DocId batch[kBlockSize];
      while (const size_t got = c->take(batch, kBlockSize)) {
        check(batch[got - 1]);
        for (size_t i = 0; i < got; ++i) words_[batch[i] >> 6] |= uint64_t{1} << (batch[i] & 63);
      }
    }
    for (uint64_t w : words_) count_ += std::popcount(w);
    doc_ = find_from(0);
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    untouched_ = false;
    return doc_ = find_from(static_cast<uint64_t>(doc_) + 1);
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    untouched_ = false;
    return doc_ = find_from(target);
  }
  uint64_t cost() const override { return count_; }
  uint64_t work() const override { return work_; }
  void collect_remaining(std::vector<DocId>& out, DocId base) override {
    for_words([](size_t) { return ~uint64_t{0}; }, [&](size_t w, uint64_t bits) { append_bits(out, base, w, bits); });
  }
  float score() override { return scores_.empty() ? 0 : scores_[doc_]; }
  float max_score() override { return max_score_; }
  bool contains(DocId target) override {
    return (target >> 6) < words_.size() && (words_[target >> 6] >> (target & 63) & 1);
  }
  uint64_t count_remaining() override {
    if (untouched_) {
      doc_ = kNoMoreDocs;
      return count_;
    }
    return DocCursor::count_remaining();
  }
  uint64_t count_live(const LiveDocs& live) override {
    uint64_t n = 0;
    for_words([&](size_t w) { return live.word(w); },
              [&](size_t, uint64_t bits) { n += static_cast<uint64_t>(std::popcount(bits)); });
    return n;
  }
  void collect_live(std::vector<DocId>& out, DocId base, const LiveDocs& live) override {
    for_words([&](size_t w) { return live.word(w); },
              [&](size_t w, uint64_t bits) { append_bits(out, base, w, bits); });
  }
  void explain(std::string& out, int depth) const override { explain_line(out, depth, "or(bitset)", count_); }

 private:
  DocId find_from(uint64_t from) const {
    size_t w = from >> 6;
    if (w >= words_.size()) return kNoMoreDocs;
    uint64_t bits = words_[w] & (~uint64_t{0} << (from & 63));
    while (bits == 0) {
      if (++w >= words_.size()) return kNoMoreDocs;
      bits = words_[w];
    }
    return static_cast<DocId>(w * 64 + std::countr_zero(bits));
  }

  static void append_bits(std::vector<DocId>& out, DocId base, size_t w, uint64_t bits) {
    for (; bits != 0; bits &= bits - 1) out.push_back(base + static_cast<DocId>(w * 64 + std::countr_zero(bits)));
  }

  // fn(w, bits) for each word w from doc() on, its bits ANDed with
  // mask(w) (those below doc() cleared); consumes the cursor.
  template <class Mask, class Fn>
  void for_words(Mask&& mask, Fn&& fn) {
    untouched_ = false;
    if (doc_ == kNoMoreDocs) return;
    const size_t first = doc_ >> 6;
    for (size_t w = first; w < words_.size(); ++w) {
      uint64_t bits = words_[w] & mask(w);
      if (w == first) bits &= ~uint64_t{0} << (doc_ & 63);
      if (bits != 0) fn(w, bits);
    }
    doc_ = kNoMoreDocs;
  }

  std::vector<uint64_t> words_;
  std::vector<float> scores_;
  float max_score_ = 0;
  uint64_t count_ = 0, work_ = 0;
  bool untouched_ = true;
};

}  // namespace fts
