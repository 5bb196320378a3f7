// The matches of a segment's query that are not deleted: wraps the root
// cursor of a segment with deleted docs. Cursors below it (and the filter
// cache's bitmaps) see every doc of the segment, so they stay valid whatever
// is deleted later.
#pragma once

#include <memory>

#include "index/format/live_docs.h"
#include "query/doc_cursor.h"

namespace fts {

class LiveDocsCursor final : public DocCursor {
 public:
  LiveDocsCursor(std::unique_ptr<DocCursor> inner, const LiveDocs& live) : inner_(std::move(inner)), live_(live) {
    doc_ = skip_deleted(inner_->doc());
  }
  // inner filtered by live, or inner itself where live is null (a segment
  // without deleted docs).
  static std::unique_ptr<DocCursor> filter(std::unique_ptr<DocCursor> inner, const LiveDocs* live) {
    if (!live) return inner;
    return std::make_unique<LiveDocsCursor>(std::move(inner), *live);
  }

  DocId next() override { return doc_ = skip_deleted(inner_->next()); }
  DocId advance(DocId target) override {
    if (target <= doc_ && doc_ != kNoMoreDocs) return doc_;
    return doc_ = skip_deleted(inner_->advance(target));
  }
  uint64_t cost() const override { return inner_->cost(); }
  uint64_t work() const override { return inner_->work(); }
  float score() override { return inner_->score(); }
  float max_score() override { return inner_->max_score(); }
  Bound block_bound(DocId target) override { return inner_->block_bound(target); }
  DocId skip_ruled_out(DocId target, float threshold) override { return inner_->skip_ruled_out(target, threshold); }
  bool set_min_competitive_score(float score) override { return inner_->set_min_competitive_score(score); }
  // The inner cursor sits on doc(), the first live match, and filters
  // the rest in bulk.
  uint64_t count_remaining() override {
    if (doc_ == kNoMoreDocs) return 0;
    doc_ = kNoMoreDocs;
    return inner_->count_live(live_);
  }
  uint64_t count_through(DocId last) override {
    if (doc_ == kNoMoreDocs || doc_ > last) return 0;
    uint64_t n = 0;
    DocId batch[kBlockSize];
    while (const size_t got = inner_->take_through(last, batch, kBlockSize)) n += live_.count_live(batch, got);
    doc_ = skip_deleted(inner_->doc());
    return n;
  }
  // The inner cursor's batches, less their deleted docs.
  size_t take_scored(DocId* docs, float* scores, size_t max) override {
    size_t kept = 0;
    while (kept == 0 && max > 0 && doc_ != kNoMoreDocs) {
      const size_t got = inner_->take_scored(docs, scores, max);
      for (size_t i = 0; i < got; ++i) {
        docs[kept] = docs[i];
        scores[kept] = scores[i];
        kept += live_.is_live(docs[i]);
      }
      doc_ = skip_deleted(inner_->doc());
    }
    return kept;
  }
  void collect_remaining(std::vector<DocId>& out, DocId base) override {
    if (doc_ == kNoMoreDocs) return;
    doc_ = kNoMoreDocs;
    inner_->collect_live(out, base, live_);
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "live-docs deleted=" + std::to_string(live_.deleted_count()), cost());
    inner_->explain(out, depth + 1);
  }

 private:
  DocId skip_deleted(DocId d) {
    while (d != kNoMoreDocs && !live_.is_live(d)) d = inner_->next();
    return d;
  }

  std::unique_ptr<DocCursor> inner_;
  const LiveDocs& live_;
};

}  // namespace fts
