// include minus exclude: each candidate of include is checked by advancing
// the excluded cursor to it, so exclude is read only where include matches.
// Scores are include's (a negated part never scores).
#pragma once

#include <memory>

#include "query/all_docs_cursor.h"
#include "query/doc_cursor.h"

namespace fts {

class AndNotCursor final : public DocCursor {
 public:
  AndNotCursor(std::unique_ptr<DocCursor> include, std::unique_ptr<DocCursor> exclude)
      : include_(std::move(include)),
        exclude_(std::move(exclude)),
        include_is_everything_(dynamic_cast<AllDocsCursor*>(include_.get()) != nullptr) {
    skip_excluded(include_->doc());
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    return skip_excluded(include_->next());
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    return skip_excluded(include_->advance(target));
  }
  uint64_t cost() const override { return include_->cost(); }
  uint64_t work() const override { return include_->work() + exclude_->work(); }
  float score() override { return include_->score(); }
  // A complement counts as the docs left minus the exclusions left: the
  // excluded cursor sits past doc() (doc() is a match), and every doc from
  // doc() on is included. Saves walking every doc for NOT queries.
  uint64_t count_remaining() override {
    if (!include_is_everything_ || doc_ == kNoMoreDocs) return DocCursor::count_remaining();
    const uint64_t left = include_->cost() - doc_;
    const uint64_t excluded = exclude_->count_remaining();
    doc_ = kNoMoreDocs;
    return left - excluded;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "and-not", cost());
    include_->explain(out, depth + 1);
    out.append(static_cast<size_t>(depth + 1) * 2, ' ');
    out += "minus:\n";
    exclude_->explain(out, depth + 2);
  }

 private:
  DocId skip_excluded(DocId d) {
    while (d != kNoMoreDocs) {
      DocId e = exclude_->doc();
      if (e < d) e = exclude_->advance(d);
      if (e != d) break;
      d = include_->next();
    }
    return doc_ = d;
  }

  std::unique_ptr<DocCursor> include_, exclude_;
  const bool include_is_everything_;
};

}  // namespace fts
