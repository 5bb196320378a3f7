// include minus exclude: each candidate of include is probed in exclude
// (contains()), so exclude is read only where include matches, and an
// excluded phrase checks positions only there.
// Scores are include's (a negated part never scores). A complement (every
// doc minus exclude) iterates exclude instead, confirming each of its
// candidates where it stops on them (a phrase built two-phase): an exact
// phrase would search for its first match on construction, anywhere in
// the segment, where the first ten docs of `NOT "a b c"` need only its
// candidates among them.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "query/all_docs_cursor.h"
#include "query/doc_cursor.h"

namespace fts {

class AndNotCursor final : public DocCursor {
 public:
  AndNotCursor(std::unique_ptr<DocCursor> include, std::unique_ptr<DocCursor> exclude)
      : include_(std::move(include)),
        exclude_(std::move(exclude)),
        include_is_everything_(dynamic_cast<AllDocsCursor*>(include_.get()) != nullptr),
        exclude_approximate_(include_is_everything_ && exclude_->approximate()) {
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
  float max_score() override { return include_->max_score(); }
  Bound block_bound(DocId target) override { return include_->block_bound(target); }
  bool set_min_competitive_score(float score) override { return include_->set_min_competitive_score(score); }
  // A complement counts as the docs left minus the exclusions left: the
  // excluded cursor sits past doc() (doc() is a match), and every doc from
  // doc() on is included. Saves walking every doc for NOT queries.
  uint64_t count_remaining() override {
    if (!include_is_everything_) return count_kept(nullptr);
    if (doc_ == kNoMoreDocs) return 0;
    const uint64_t left = include_->cost() - doc_;
    const uint64_t excluded = exclude_approximate_ ? count_exclusions(nullptr) : exclude_->count_remaining();
    doc_ = kNoMoreDocs;
    return left - excluded;
  }
  // The same for the live docs: those left minus the live exclusions.
  uint64_t count_live(const LiveDocs& live) override {
    if (!include_is_everything_) return count_kept(&live);
    if (doc_ == kNoMoreDocs) return 0;
    const uint64_t left = live.count_from(doc_);
    const uint64_t excluded = exclude_approximate_ ? count_exclusions(&live) : exclude_->count_live(live);
    doc_ = kNoMoreDocs;
    return left - excluded;
  }
  bool contains(DocId target) override {
    if (target <= doc_) return target == doc_;
    return include_->contains(target) && !exclude_->contains(target);
  }
  // A complement appends the runs between exclusions without per-doc calls;
  // otherwise include collects in bulk and the exclusions are dropped from
  // what it appended.
  void collect_remaining(std::vector<DocId>& out, DocId base) override {
    if (!include_is_everything_) return collect_kept(out, base, [&] { include_->collect_remaining(out, base); });
    for_each_run([&](uint64_t from, uint64_t to) {
      for (uint64_t d = from; d < to; ++d) out.push_back(base + static_cast<DocId>(d));
    });
  }
  void collect_live(std::vector<DocId>& out, DocId base, const LiveDocs& live) override {
    if (!include_is_everything_) return collect_kept(out, base, [&] { include_->collect_live(out, base, live); });
    for_each_run([&](uint64_t from, uint64_t to) {
      for (uint64_t d = from; d < to; ++d) {
        if (live.is_live(static_cast<DocId>(d))) out.push_back(base + static_cast<DocId>(d));
      }
    });
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "and-not", cost());
    include_->explain(out, depth + 1);
    out.append(static_cast<size_t>(depth + 1) * 2, ' ');
    out += "minus:\n";
    exclude_->explain(out, depth + 2);
  }

 private:
  // A complement's matches from doc() on as runs [from, to) between the
  // exclusions: fn(from, to) for each; consumes the cursor.
  template <class Fn>
  void for_each_run(Fn&& fn) {
    const uint64_t end = include_->cost();  // doc count
    uint64_t d = doc_;
    while (d < end) {
      const uint64_t e = exclusion_from(static_cast<DocId>(d));
      const uint64_t stop = std::min(e, end);
      if (d < stop) fn(d, stop);
      d = e + 1;
    }
    doc_ = kNoMoreDocs;
  }

  // Whether exclude holds include's doc d (d ascending). Below exclude's
  // doc() nothing matches it (DocCursor::contains). A term's doc() moves
  // with each probe, so a rare excluded term is probed, a virtual call,
  // only where it may hold.
  bool excluded(DocId d) { return d >= exclude_->doc() && exclude_->contains(d); }

  // The matches from doc() on appended to out (ids plus base): include's,
  // by collect() (its bulk collection), then the excluded ones dropped;
  // consumes the cursor. (Iterated a doc at a time, `(syn as) NOT (jockey
  // OR dj)` took twice the time of `syn as`, whose AND collects by bitsets.)
  template <class Collect>
  void collect_kept(std::vector<DocId>& out, DocId base, Collect&& collect) {
    if (doc_ == kNoMoreDocs) return;
    const size_t from = out.size();
    collect();
    size_t kept = from;
    for (size_t i = from; i < out.size(); ++i) {
      const DocId d = out[i] - base;
      out[kept] = out[i];
      kept += !excluded(d);
    }
    out.resize(kept);
    doc_ = kNoMoreDocs;
  }

  // The matches from doc() on (in live only, given live), include's taken
  // a batch at a time; consumes the cursor.
  uint64_t count_kept(const LiveDocs* live) {
    if (doc_ == kNoMoreDocs) return 0;
    uint64_t n = 0;
    DocId batch[kBlockSize];
    while (const size_t got = include_->take(batch, kBlockSize)) {
      for (size_t i = 0; i < got; ++i) {
        const DocId d = batch[i];
        n += (live == nullptr || live->is_live(d)) && !excluded(d);
      }
    }
    doc_ = kNoMoreDocs;
    return n;
  }

  DocId skip_excluded(DocId d) {
    while (d != kNoMoreDocs) {
      if (include_is_everything_) {
        // A complement walks exclude anyway: iterate it, so it can still
        // count and collect the rest (count_remaining, collect_remaining).
        // Whether d is excluded: a candidate past d is left unconfirmed.
        DocId e = exclude_->doc();
        if (e < d) e = exclude_->advance(d);
        if (e != d || (exclude_approximate_ && !exclude_->confirm())) break;
      } else if (!excluded(d)) {
        break;
      }
      d = include_->next();
    }
    return doc_ = d;
  }

  // A complement's first exclusion >= from (kNoMoreDocs: none).
  DocId exclusion_from(DocId from) {
    DocId e = exclude_->doc();
    if (e < from) e = exclude_->advance(from);
    if (exclude_approximate_) {
      while (e != kNoMoreDocs && !exclude_->confirm()) e = exclude_->next();
    }
    return e;
  }
  // A complement's exclusions after doc() (in live only, given live).
  uint64_t count_exclusions(const LiveDocs* live) {
    uint64_t n = 0;
    for (DocId e = exclusion_from(doc_); e != kNoMoreDocs; e = exclusion_from(e + 1)) {
      n += live == nullptr || live->is_live(e);
    }
    return n;
  }

  std::unique_ptr<DocCursor> include_, exclude_;
  const bool include_is_everything_;
  const bool exclude_approximate_;  // a complement's exclude stops on candidates
};

}  // namespace fts
