// Docs where the phrase's tokens occur consecutively, in order, within one
// field. Docs holding every token come from a conjunction of the tokens'
// postings (the "approximation": kAny postings for an unqualified phrase,
// which carry no positions, or the field's own); each candidate is then
// confirmed on positions, per field part (title and abstract for an
// unqualified phrase, so a phrase never spans the two fields). Repeated
// tokens ("ha ha") share one cursor and are matched at their offsets.
//
// An unqualified phrase looks its tokens up in the title and abstract only
// when a first candidate needs confirming: beside a rarer required clause
// most segments of a many-segment index never get that far, and the six
// lookups and cursors of a three-token phrase were most of its cost there.
// From there an exact one iterates the union of the two fields'
// conjunctions (the title's mostly short), no longer the kAny lists: those
// hold the abstract's docs again, and reading both cost a sixth of `"one
// who is"`. Two-phase, it leaves the kAny lists for the parts' at the
// first candidate it confirms (or probe), so that a candidate's doc ids
// are read once, not from the kAny lists and then again from the parts':
// `abstract:bp "is formed by"` on the 6M-doc dump, 6.7 -> 5.8 ms.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "index/reader/segment_reader.h"
#include "query/bm25.h"
#include "query/doc_cursor.h"
#include "query/token_conjunction.h"

namespace fts {

class PhraseCursor final : public DocCursor {
 public:
  // approx: one cursor per unique token; slots[i]: the unique token at
  // phrase offset i. field_tokens: the unique tokens, in approx's order, to
  // read positions from in the title and in the abstract (field kAny);
  // empty: positions come from approx itself (a single-field phrase).
  // weight null: planned without scores (stop at the first occurrence).
  // field: for the BM25 length (kAny for an unqualified phrase). two_phase:
  // approximate() from the start, so the cursor stops on its first
  // candidate instead of searching for its first match (an AND with a rare
  // other child would otherwise pay a scan of the whole phrase). The
  // tokens and label must outlive the cursor.
  PhraseCursor(std::vector<PostingsCursor> approx, std::vector<uint32_t> slots,
               std::vector<std::string_view> field_tokens, const SegmentReader* segment, Field field,
               const Bm25Weight* weight, std::string_view label, bool two_phase = false)
      : approx_(std::move(approx)),
        slots_(std::move(slots)),
        field_tokens_(std::move(field_tokens)),
        segment_(segment),
        field_(field),
        weight_(weight),
        label_(label),
        streams_(slots_.size()),
        read_(slots_.size()),
        approximate_(two_phase) {
    find();
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    if (on_parts_) return approximate_ ? candidate_on_parts(doc_ + 1, true) : find_on_parts(doc_ + 1);
    // After advance_once() the lead token may be short of doc_.
    PostingsCursor& lead = approx_.lead();
    if (approximate_) {
      lead.advance(doc_ + 1);
    } else {
      lead.next();
    }
    return find();
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    if (on_parts_) return approximate_ ? candidate_on_parts(target, false) : find_on_parts(target);
    if (approximate_) return advance_once(target);
    approx_.lead().advance(target);
    return find();
  }
  uint64_t cost() const override { return approx_.lead().cost(); }
  uint64_t work() const override {
    uint64_t w = 0;  // the lead's list whole (its cost), the others capped
    for (const auto& c : approx_.cursors()) w += work_beside_lead(c.cost(), cost());
    // The title and abstract postings of a token hold about as many docs
    // as its kAny postings: counted without looking them up.
    if (!field_tokens_.empty()) w *= 2;
    return 2 * w;  // positions cost about as much again as the doc ids
  }
  float score() override { return weight_ ? weight_->score(freq_, segment_->field_length(field_, doc_)) : 0; }
  // A doc holds the phrase at most as often as any of its tokens, so each
  // token's impacts bound the phrase's length part too. Computed once.
  float max_score() override {
    if (!weight_) return 0;
    if (max_score_ < 0) {
      uint32_t tf = UINT32_MAX;
      for (const auto& c : approx_.cursors()) tf = std::min(tf, c.max_freq());
      max_score_ = weight_->score(tf, std::max(1u, segment_->shortest_field_length(field_)));
      for (const auto& c : approx_.cursors()) {
        if (const int column = c.impact_column(field_); column >= 0)
          max_score_ = std::min(max_score_, weight_->impact_bound(c.term_impact(column), c.reference_average(column)));
      }
    }
    return max_score_;
  }
  // From approx_'s skip data, which iterating the field parts leaves alone.
  Bound block_bound(DocId target) override {
    if (!weight_ || doc_ == kNoMoreDocs) return {kNoMoreDocs, 0};
    Bound out{kNoMoreDocs, max_score()};
    for (size_t u = 0; u < approx_.size(); ++u) {
      PostingsCursor& c = approx_[u];
      const int column = c.impact_column(field_);
      if (column < 0) continue;
      const PostingsCursor::Bound b = c.block_bound(target, column);
      out.end = std::min(out.end, b.last);
      out.score = std::min(out.score, weight_->impact_bound(b.impact, c.reference_average(column)));
    }
    return out;
  }
  // Top-k without an exact count (Lucene's setMinCompetitiveScore): from
  // now on the exact search passes the stretches where the tokens' block
  // bounds rule out a score above score, reading no positions there
  // (`"or not"`, top10-fast on the 6M-doc dump: 44.4 -> 34.1 ms). A
  // two-phase phrase leaves that to its parent, which confirms candidates.
  bool set_min_competitive_score(float score) override {
    if (!weight_ || approximate_) return false;
    min_competitive_ = score;
    competitive_end_ = -1;  // the stretch found competitive may be no longer
    return true;
  }
  // Positions are read only when every token's postings hold target. The
  // lead never passes a match it was not asked about (see find() and
  // advance_once()), so a lead beyond target means target lacks the lead
  // token. Once the field parts are iterated approx_ is left where they
  // took over, at or before doc(), so it still steps to any target.
  bool contains(DocId target) override {
    if (target < doc_) return false;
    if (target == doc_) return confirm();
    if (on_parts_) return occurrences(target, false) > 0;
    return approx_.step(target) == target && occurrences(target, false) > 0;
  }
  // From now on stop on candidates: next() on docs holding every token,
  // advance() where a token first passes the target (advance_once());
  // confirm() checks the tokens, then reads positions. A phrase already
  // iterating its field parts stays exact.
  bool approximate() override {
    if (on_parts_ && !approximate_) return false;
    if (!approximate_) checked_ = doc_;  // found exactly so far
    approximate_ = true;
    return true;
  }
  bool confirm() override {
    if (checked_ != doc_) {
      checked_ = doc_;
      if (doc_ == kNoMoreDocs) {
        freq_ = 0;
      } else if (on_parts_) {
        freq_ = occurrences(doc_, weight_ != nullptr);
      } else {
        freq_ = approx_.step(doc_) != doc_ ? 0 : occurrences(doc_, weight_ != nullptr);
      }
    }
    return freq_ > 0;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, (approximate_ ? "phrase(two-phase) " : "phrase ") + std::string(label_), cost());
  }

 private:
  // The positional postings of the unique tokens in one field, in approx_'s
  // order, and the doc they are aligned on while the parts are iterated.
  struct FieldPart {
    TokenConjunction tokens;
    DocId doc = 0;
  };

  // The first doc from the lead's on holding an occurrence (or every
  // token, when approximate). An exact unqualified phrase hands over to its
  // field parts at the first doc holding every token anywhere: iterating
  // the kAny lists besides would read each doc id twice, and the parts are
  // looked up only where the phrase may match at all.
  DocId find() {
    for (;;) {
      const DocId candidate = approx_.align();
      if (candidate == kNoMoreDocs) return doc_ = kNoMoreDocs;
      if (approximate_) return doc_ = candidate;
      if (!field_tokens_.empty()) {
        look_up_field_parts();
        for (auto& part : parts_) part.doc = part.tokens.align_from(candidate);
        return find_on_parts(candidate);
      }
      if (const DocId from = competitive_from(candidate); from != candidate) {
        if (from == kNoMoreDocs) return doc_ = kNoMoreDocs;
        approx_.lead().advance(from);
        continue;
      }
      freq_ = may_compete(candidate, false) ? occurrences(candidate, weight_ != nullptr) : 0;
      if (freq_ > 0) return checked_ = doc_ = candidate;
      approx_.lead().next();
    }
  }

  // The first doc >= target where a field part holds an occurrence.
  DocId find_on_parts(DocId target) {
    for (;;) {
      DocId first = kNoMoreDocs;
      for (auto& part : parts_) {
        if (part.doc < target) part.doc = part.tokens.align_from(target);
        first = std::min(first, part.doc);
      }
      if (first == kNoMoreDocs) return doc_ = kNoMoreDocs;
      if (const DocId from = competitive_from(first); from != first) {
        if (from == kNoMoreDocs) return doc_ = kNoMoreDocs;
        target = from;
        continue;
      }
      freq_ = may_compete(first, true) ? occurrences(first, weight_ != nullptr) : 0;
      if (freq_ > 0) return checked_ = doc_ = first;
      target = first + 1;
    }
  }

  // The first doc from target on where the tokens' block bounds exceed
  // min_competitive_ (kNoMoreDocs: none), passing the stretches below it
  // on their skip data; target itself without a min_competitive_. Targets
  // must not decrease (block_bound()'s).
  DocId competitive_from(DocId target) {
    if (min_competitive_ < 0) return target;
    while (target != kNoMoreDocs && static_cast<int64_t>(target) > competitive_end_) {
      const Bound b = block_bound(target);
      if (b.score > min_competitive_) {
        competitive_end_ = b.end;
        break;
      }
      target = b.end == kNoMoreDocs ? kNoMoreDocs : b.end + 1;
    }
    return target;
  }

  // Whether doc, where the tokens are aligned (of approx_, or of the parts
  // at doc when on_parts), may score at least min_competitive_. A field
  // holds the phrase at most as often as its rarest token there, so the
  // tokens' freqs bound the score before a position is read: once the
  // k-th score is high, most candidates of a phrase of common words are
  // passed over unread. (Docs passed over go uncounted, as the stretches
  // competitive_from() passes: a parent that gives a threshold counts
  // inexactly.)
  bool may_compete(DocId doc, bool on_parts) {
    if (min_competitive_ < 0) return true;
    auto rarest = [](TokenConjunction& tokens) {
      uint32_t f = UINT32_MAX;
      for (size_t u = 0; u < tokens.size(); ++u) f = std::min(f, tokens[u].freq());
      return f;
    };
    uint64_t tf = 0;
    if (on_parts) {
      for (auto& part : parts_)
        if (part.doc == doc) tf += rarest(part.tokens);
    } else {
      tf = rarest(approx_);
    }
    const auto bound = static_cast<uint32_t>(std::min<uint64_t>(tf, UINT32_MAX));
    return weight_->score(bound, segment_->field_length(field_, doc)) >= min_competitive_;
  }

  // Two-phase on the field parts: the first candidate >= target of any
  // part, each part's tokens moved once (a parent's advance(), as
  // advance_once()) or to a doc they all hold (next()).
  DocId candidate_on_parts(DocId target, bool aligned) {
    DocId first = kNoMoreDocs;
    for (auto& part : parts_) {
      if (part.doc < target) part.doc = aligned ? part.tokens.align_from(target) : part.tokens.step(target);
      first = std::min(first, part.doc);
    }
    return doc_ = first;
  }

  // Approximate advance() as a conjunction's child: each token moves once,
  // rarest first, and the first to pass target hands its doc back to the
  // parent, whose own lead is mostly sparser than the tokens together.
  // Aligning every token before returning would find the next doc holding
  // all of them, far beyond where the parent asks next (`abstract:bp "is
  // formed by"` made 4.6 token advances per bp doc). The doc returned may
  // lack a token; confirm() checks.
  DocId advance_once(DocId target) { return doc_ = approx_.step(target); }

  // The title and abstract parts of an unqualified phrase, each where the
  // field holds every token.
  void look_up_field_parts() {
    on_parts_ = true;
    for (Field f : {Field::kTitle, Field::kAbstract}) {
      std::vector<PostingsCursor> cursors;
      cursors.reserve(field_tokens_.size());
      for (std::string_view token : field_tokens_) {
        auto info = segment_->lookup(f, token);
        if (!info) break;
        cursors.push_back(segment_->cursor(f, *info));
      }
      if (cursors.size() == field_tokens_.size()) parts_.push_back({TokenConjunction(std::move(cursors))});
    }
  }

  // Occurrences in doc (every token's postings of approx_ hold it) summed
  // over the field parts; with all false, stops at the first.
  uint32_t occurrences(DocId doc, bool all) {
    if (field_tokens_.empty()) return count_in(approx_, all);
    if (!on_parts_) look_up_field_parts();
    uint32_t total = 0;
    for (auto& part : parts_) {
      // Where the part's tokens are: a two-phase phrase's next candidate
      // there (an exact one's parts are at or beyond doc already).
      part.doc = part.tokens.step(doc);
      if (part.doc != doc) continue;
      total += count_in(part.tokens, all);
      if (total > 0 && !all) return total;
    }
    return total;
  }

  // Occurrences in the doc every token of tokens is on: the starts of
  // the phrase, its offsets' positions merged as they are read, one stream
  // per offset (a repeated token, "ha ha", is read by each of its offsets),
  // each walked once. Nothing is copied, and without all nothing is read
  // past the first match: `"to be or not to be"` ("or not") counted on the
  // 6M-doc dump, 49 -> 44 ms against copying each token's positions into a
  // vector first. The streams live in the cursor, made once, not per
  // candidate.
  uint32_t count_in(TokenConjunction& tokens, bool all) {
    const size_t n = slots_.size();
    for (size_t i = 0; i < n; ++i) streams_[i] = tokens[slots_[i]].position_stream();
    for (size_t i = 1; i < n; ++i) streams_[i].next(read_[i]);  // each token occurs in the doc
    uint32_t count = 0, start = 0;
    while (streams_[0].next(start)) {
      bool match = true;
      for (size_t i = 1; i < n; ++i) {
        const uint64_t want = uint64_t{start} + i;
        while (read_[i] < want) {
          if (!streams_[i].next(read_[i])) return count;  // later starts cannot match either
        }
        if (read_[i] != want) {
          match = false;
          break;
        }
      }
      if (match) {
        ++count;
        if (!all) return count;
      }
    }
    return count;
  }

  TokenConjunction approx_;
  std::vector<uint32_t> slots_;
  std::vector<std::string_view> field_tokens_;
  std::vector<FieldPart> parts_;
  bool on_parts_ = false;     // iterating parts_ (unqualified, exact or two-phase)
  const SegmentReader* segment_;
  Field field_;
  const Bm25Weight* weight_;
  float max_score_ = -1;  // not yet computed
  float min_competitive_ = -1;    // set_min_competitive_score()'s (-1: none)
  int64_t competitive_end_ = -1;  // the end of the stretch last found competitive (-1: none)
  std::string_view label_;
  std::vector<PostingsCursor::PositionStream> streams_;  // count_in()'s, per offset
  std::vector<uint32_t> read_;                           // per offset: the position its stream read last
  uint32_t freq_ = 0;    // occurrences in checked_
  DocId checked_ = kNoMoreDocs;  // the doc freq_ is of
  bool approximate_ = false;
};

}  // namespace fts
