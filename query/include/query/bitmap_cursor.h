// Iterates a Roaring bitmap held by the filter cache. The shared_ptr keeps
// the bitmap alive while this query uses it, even if the cache evicts it.
#pragma once

#include <roaring/roaring.hh>

#include <memory>

#include "query/doc_cursor.h"

namespace fts {

class BitmapCursor final : public DocCursor {
 public:
  explicit BitmapCursor(std::shared_ptr<const Roaring> bitmap)
      : bitmap_(std::move(bitmap)), cardinality_(bitmap_->cardinality()) {
    roaring_init_iterator(&bitmap_->roaring, &it_);
    doc_ = it_.has_value ? it_.current_value : kNoMoreDocs;
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    untouched_ = false;
    return doc_ = roaring_advance_uint32_iterator(&it_) ? it_.current_value : kNoMoreDocs;
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    untouched_ = false;
    return doc_ = roaring_move_uint32_iterator_equalorlarger(&it_, target) ? it_.current_value : kNoMoreDocs;
  }
  uint64_t cost() const override { return cardinality_; }
  bool contains(DocId target) override { return bitmap_->contains(target); }
  float max_score() override { return 0; }  // a filter: never scores
  // Nothing left to save by caching: it is the cache.
  uint64_t work() const override { return 0; }
  uint64_t count_remaining() override {
    if (untouched_) {
      doc_ = kNoMoreDocs;
      return cardinality_;
    }
    return DocCursor::count_remaining();
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "bitmap (from cache)", cardinality_);
  }

 private:
  std::shared_ptr<const Roaring> bitmap_;
  roaring_uint32_iterator_t it_;
  uint64_t cardinality_;
  bool untouched_ = true;
};

}  // namespace fts
