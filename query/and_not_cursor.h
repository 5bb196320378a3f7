// include minus exclude: each candidate of include is checked by advancing
// the excluded cursor to it, so exclude is read only where include matches.
// Scores are include's (a negated part never scores).
#pragma once

#include <memory>

#include "query/doc_cursor.h"

namespace fts {

class AndNotCursor final : public DocCursor {
 public:
  AndNotCursor(std::unique_ptr<DocCursor> include, std::unique_ptr<DocCursor> exclude)
      : include_(std::move(include)), exclude_(std::move(exclude)) {
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
};

}  // namespace fts
