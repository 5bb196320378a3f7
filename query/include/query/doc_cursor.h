// The one interface every query operator implements (in the spirit of
// Lucene's DocIdSetIterator): a forward-only iterator over ascending
// segment-local doc ids. A cursor is positioned on its first match as soon
// as it is constructed, so composite cursors never deal with an
// "unpositioned" state; kNoMoreDocs marks exhaustion.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "index/format/live_docs.h"
#include "index/format/postings.h"

namespace fts {

class DocCursor {
 public:
  virtual ~DocCursor() = default;

  DocId doc() const { return doc_; }
  virtual DocId next() = 0;
  // First match >= target. A target <= doc() leaves the cursor where it is,
  // so callers need not check (the check is one compare).
  virtual DocId advance(DocId target) = 0;
  // Upper-bound estimate of the number of matches (planning, explain).
  virtual uint64_t cost() const = 0;
  // Estimate of the postings this cursor reads to enumerate everything:
  // what materialising it into the filter cache would save.
  virtual uint64_t work() const { return cost(); }
  // BM25 of the scoring leaves matching the current doc (0 when the cursor
  // was planned without scores).
  virtual float score() { return 0; }
  // An upper bound of score() over every doc (top-k pruning); infinity
  // where none is known. May read skip data: call once per plan.
  virtual float max_score() { return std::numeric_limits<float>::infinity(); }
  // Block-max pruning: a bound on score() of every match in [target, end],
  // where end >= target (kNoMoreDocs: all the rest). Reads skip data only
  // and never moves the cursor; targets must not decrease. By default one
  // stretch, bounded by max_score(), which is then called once per window:
  // cursors whose max_score() costs more than a sum override this.
  struct Bound {
    DocId end;
    float score;
  };
  virtual Bound block_bound(DocId) { return {kNoMoreDocs, max_score()}; }
  // The first doc >= target of the stretches whose block_bound() may exceed
  // threshold, having passed those that cannot (kNoMoreDocs: none is
  // left). Like block_bound(), reads skip data only and never moves the
  // cursor. By default nothing is passed: target.
  virtual DocId skip_ruled_out(DocId target, float /*threshold*/) { return target; }
  // Top-k pruning without an exact count (Lucene's setMinCompetitiveScore):
  // from now on the cursor may pass over matches whose score() falls below
  // score, which only rises from call to call. Returns whether it may
  // skip any match from now on; by default it skips none.
  virtual bool set_min_competitive_score(float /*score*/) { return false; }
  // Matches from doc() on, without moving, where known without iterating
  // (a term's, from its list's length); nullopt elsewhere.
  virtual std::optional<uint64_t> known_count() const { return std::nullopt; }
  // Matches from doc() on, consuming the cursor. Overridden where the answer
  // is known without iterating.
  virtual uint64_t count_remaining() {
    uint64_t n = 0;
    for (DocId d = doc_; d != kNoMoreDocs; d = next()) ++n;
    return n;
  }
  // Copies up to max matches from doc() on into out and moves past them;
  // 0 once exhausted. A bulk next() for readers of every match: a term
  // copies a block at a time.
  virtual size_t take(DocId* out, size_t max) {
    size_t n = 0;
    for (DocId d = doc_; n < max && d != kNoMoreDocs; d = next()) out[n++] = d;
    return n;
  }
  // take() with each match's score(): scores[i] is docs[i]'s, and 0 only
  // once exhausted (or max is 0). For ranking every match: a conjunction of
  // terms gathers a batch's freqs first and scores them in one loop,
  // without the virtual next() and score() per match and per term.
  virtual size_t take_scored(DocId* docs, float* scores, size_t max) {
    size_t n = 0;
    for (DocId d = doc_; n < max && d != kNoMoreDocs; d = next()) {
      docs[n] = d;
      scores[n++] = score();
    }
    return n;
  }
  // take() of the matches up to last only.
  virtual size_t take_through(DocId last, DocId* out, size_t max) {
    size_t n = 0;
    for (DocId d = doc_; n < max && d <= last && d != kNoMoreDocs; d = next()) out[n++] = d;
    return n;
  }
  // The matches from doc() through last, counted; the cursor moves to the
  // first one after last. For counting what a ranking skips unscored.
  virtual uint64_t count_through(DocId last) {
    uint64_t n = 0;
    DocId batch[kBlockSize];
    while (const size_t got = take_through(last, batch, kBlockSize)) n += got;
    return n;
  }
  // count_remaining() and collect_remaining() of the matches that live
  // holds (a segment's live docs), consuming the cursor: a batch at a time
  // by default, a word at a time where the matches are bits.
  virtual uint64_t count_live(const LiveDocs& live) {
    uint64_t n = 0;
    DocId batch[kBlockSize];
    while (const size_t got = take(batch, kBlockSize)) n += live.count_live(batch, got);
    return n;
  }
  virtual void collect_live(std::vector<DocId>& out, DocId base, const LiveDocs& live) {
    append_taken(out, [&](DocId* docs, size_t n) { return live.keep_live(docs, n, base); });
  }
  // Membership test for a filter that is only probed, never iterated (the
  // excluded side of AND-NOT): targets must not decrease, and once probed a
  // cursor may only be probed again. Phrases check positions only at the
  // probed docs instead of finding every match in between. A composite's
  // children may have moved past doc() while it was positioned, so a target
  // <= doc() is answered from doc() (no match before it; doc() is one).
  virtual bool contains(DocId target) {
    DocId d = doc_;
    if (d < target) d = advance(target);
    return d == target;
  }
  // Two-phase iteration (Lucene's TwoPhaseIterator): a cursor whose matches
  // are costly to confirm (a phrase, on positions) can be switched by its
  // parent to stop on candidates only. next() and advance() then land on
  // docs that may match, and confirm() says whether the current one does;
  // an AND confirms last, once every other child holds the doc. Returns
  // false (and stays exact) where the cursor has no cheaper approximation.
  virtual bool approximate() { return false; }
  virtual bool confirm() { return true; }
  // The matches in [doc(), end), scored into a window of a disjunction
  // that is summed a clause at a time (query/window_scorer.h): for each,
  // scores[d - base] gets its score added, or stored where its bit in
  // matched is not yet set (the clauses before found no match there), and
  // the bit is set. scores must be initialized (an unmarked slot is read,
  // then masked out). The cursor moves to its first match >= end. A cursor
  // of a final class overrides this with score_window_of(*this, ...),
  // whose per-match next() and score() then inline.
  virtual void score_window(DocId base, DocId end, float* scores, uint64_t* matched) {
    score_window_of(*this, base, end, scores, matched);
  }
  // Whether score_window() reads its window in bulk (not next() and score()
  // per match): then scoring every match pays a window at a time.
  virtual bool scores_windows_in_bulk() const { return false; }
  // Appends the global ids (segment base + doc) of the matches from doc()
  // on, consuming the cursor.
  virtual void collect_remaining(std::vector<DocId>& out, DocId base) {
    append_taken(out, [base](DocId* docs, size_t n) {
      for (size_t i = 0; i < n; ++i) docs[i] += base;
      return n;
    });
  }
  // Appends one line per cursor of this subtree, indented by depth.
  virtual void explain(std::string& out, int depth) const = 0;

 protected:
  static void explain_line(std::string& out, int depth, const std::string& what, uint64_t cost) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += what;
    out += " cost=";
    out += std::to_string(cost);
    out += '\n';
  }

  template <class Cursor>
  static void score_window_of(Cursor& cursor, DocId base, DocId end, float* scores, uint64_t* matched) {
    for (DocId d = cursor.doc(); d < end; d = cursor.next()) {
      const uint32_t i = d - base;
      uint64_t& word = matched[i >> 6];
      // Stored, not added to a stale score: the sum then equals a sum from
      // 0 in clause order. The stale score is masked out rather than
      // branched around: the commonest clauses of a wide OR find about
      // half their docs already marked, and mispredicted that branch.
      const uint32_t marked = static_cast<uint32_t>(word >> (i & 63) & 1);
      const float before = std::bit_cast<float>(std::bit_cast<uint32_t>(scores[i]) & (0u - marked));
      scores[i] = before + cursor.score();
      word |= uint64_t{1} << (i & 63);
    }
  }

  // Appends every match from doc() on to out, a batch at a time taken
  // straight into out's storage and passed through keep(docs, n), which
  // rewrites the batch in place and returns how many of it to keep;
  // consumes the cursor. (A call and a capacity check per doc took most of
  // the time of collecting a frequent term: abstract:from, 143,409 hits
  // over 20 segments with deletes.) A batch is no larger than the capacity
  // left, while some is: a vector reserved for exactly the matches would
  // otherwise grow, copying every id, at its last batch.
  template <class Keep>
  void append_taken(std::vector<DocId>& out, Keep&& keep) {
    while (doc_ != kNoMoreDocs) {
      const size_t at = out.size(), room = out.capacity() - at;
      const size_t batch = room > 0 && room < kBlockSize ? room : kBlockSize;
      out.resize(at + batch);
      const size_t got = take(out.data() + at, batch);
      out.resize(at + keep(out.data() + at, got));
      if (got == 0) return;
    }
  }

  DocId doc_ = kNoMoreDocs;
};

// What a conjunction or a disjunction adds up from its children, whose
// scores it sums. A disjunction's exhausted children bound nothing.
template <class Children>
uint64_t sum_work(const Children& children) {
  uint64_t w = 0;
  for (const auto& c : children) w += c->work();
  return w;
}
template <class Children>
float sum_max_score(const Children& children) {
  float s = 0;
  for (const auto& c : children) s += c->max_score();
  return s;
}
template <class Children>
DocCursor::Bound sum_block_bounds(const Children& children, DocId target) {
  DocCursor::Bound sum{kNoMoreDocs, 0};
  for (const auto& c : children) {
    if (c->doc() == kNoMoreDocs) continue;
    const DocCursor::Bound b = c->block_bound(target);
    sum.end = std::min(sum.end, b.end);
    sum.score += b.score;
  }
  return sum;
}

// Matches nothing: an absent term, or an AND with an empty child.
class EmptyCursor final : public DocCursor {
 public:
  DocId next() override { return kNoMoreDocs; }
  DocId advance(DocId) override { return kNoMoreDocs; }
  uint64_t cost() const override { return 0; }
  uint64_t count_remaining() override { return 0; }
  float max_score() override { return 0; }
  Bound block_bound(DocId) override { return {kNoMoreDocs, 0}; }
  void explain(std::string& out, int depth) const override { explain_line(out, depth, "empty", 0); }
};

}  // namespace fts
