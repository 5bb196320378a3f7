// Every doc of a segment: the universe that complements (NOT, purely
// negative ANDs, OR with negative children) subtract from.
#pragma once

#include "query/doc_cursor.h"

namespace fts {

class AllDocsCursor final : public DocCursor {
 public:
  explicit AllDocsCursor(uint32_t doc_count) : doc_count_(doc_count) { doc_ = doc_count ? 0 : kNoMoreDocs; }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    return doc_ = (doc_ + 1 < doc_count_) ? doc_ + 1 : kNoMoreDocs;
  }
  DocId advance(DocId target) override {
    if (target <= doc_ && doc_ != kNoMoreDocs) return doc_;
    if (doc_ == kNoMoreDocs) return doc_;
    return doc_ = target < doc_count_ ? target : kNoMoreDocs;
  }
  uint64_t cost() const override { return doc_count_; }
  uint64_t work() const override { return 0; }  // nothing to read
  bool contains(DocId target) override { return target < doc_count_; }
  float max_score() override { return 0; }  // never scores
  uint64_t count_remaining() override {
    uint64_t n = doc_ == kNoMoreDocs ? 0 : doc_count_ - doc_;
    doc_ = kNoMoreDocs;
    return n;
  }
  uint64_t count_live(const LiveDocs& live) override {
    const uint64_t n = doc_ == kNoMoreDocs ? 0 : live.count_from(doc_);
    doc_ = kNoMoreDocs;
    return n;
  }
  void explain(std::string& out, int depth) const override { explain_line(out, depth, "all-docs", doc_count_); }

 private:
  uint32_t doc_count_;
};

}  // namespace fts
