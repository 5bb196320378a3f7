// Docs where the phrase's tokens occur consecutively, in order, within one
// field. Docs holding every token come from a leapfrog over the tokens'
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
#pragma once

#include <algorithm>
#include <numeric>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "index/reader/segment_reader.h"
#include "query/bm25.h"
#include "query/doc_cursor.h"
#include "query/merge_align.h"

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
        positions_(approx_.size()),
        index_(slots_.size()),
        approximate_(two_phase) {
    order_.resize(approx_.size());
    std::iota(order_.begin(), order_.end(), 0u);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](uint32_t a, uint32_t b) { return approx_[a].cost() < approx_[b].cost(); });
    for (auto& c : approx_) c.next();
    merge_pair_ = order_.size() >= 2 && merge_pays(approx_[order_[0]].cost(), approx_[order_[1]].cost());
    if (field_tokens_.empty()) parts_.emplace_back();  // positions from approx_
    find(approx_[order_[0]].doc());
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs || no_field_holds_every_token()) return doc_ = kNoMoreDocs;
    // After advance_once() the lead token may be short of doc_.
    PostingsCursor& lead = approx_[order_[0]];
    return find(approximate_ ? lead.advance(doc_ + 1) : lead.next());
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    if (no_field_holds_every_token()) return doc_ = kNoMoreDocs;
    if (approximate_) return advance_once(target);
    return find(approx_[order_[0]].advance(target));
  }
  uint64_t cost() const override { return approx_[order_[0]].cost(); }
  uint64_t work() const override {
    uint64_t w = 0;
    for (const auto& c : approx_) w += c.cost();
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
      for (const auto& c : approx_) tf = std::min(tf, c.max_freq());
      max_score_ = weight_->score(tf, std::max(1u, segment_->shortest_field_length(field_)));
      for (const auto& c : approx_) {
        if (const int column = c.impact_column(field_); column >= 0)
          max_score_ = std::min(max_score_, weight_->impact_bound(c.term_impact(column), c.reference_average(column)));
      }
    }
    return max_score_;
  }
  Bound block_bound(DocId target) override {
    if (!weight_ || doc_ == kNoMoreDocs) return {kNoMoreDocs, 0};
    Bound out{kNoMoreDocs, max_score()};
    for (auto& c : approx_) {
      const int column = c.impact_column(field_);
      if (column < 0) continue;
      const PostingsCursor::Bound b = c.block_bound(target, column);
      out.end = std::min(out.end, b.last);
      out.score = std::min(out.score, weight_->impact_bound(b.impact, c.reference_average(column)));
    }
    return out;
  }
  // Positions are read only when every token's postings hold target. The
  // lead never passes a match it was not asked about (see find() and
  // advance_once()), so a lead beyond target means target lacks the lead
  // token.
  bool contains(DocId target) override {
    if (target < doc_) return false;
    if (target == doc_) return confirm();
    return step_tokens(target) == target && occurrences(target, false) > 0;
  }
  // From now on stop on candidates: next() on docs holding every token,
  // advance() where a token first passes the target (advance_once());
  // confirm() checks the tokens, then reads positions.
  bool approximate() override {
    if (!approximate_) checked_ = doc_;  // found exactly so far
    approximate_ = true;
    return true;
  }
  bool confirm() override {
    if (checked_ != doc_) {
      checked_ = doc_;
      freq_ = doc_ == kNoMoreDocs || step_tokens(doc_) != doc_ ? 0 : occurrences(doc_, weight_ != nullptr);
    }
    return freq_ > 0;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, (approximate_ ? "phrase(two-phase) " : "phrase ") + std::string(label_), cost());
  }

 private:
  // The first doc >= the lead's doc candidate holding an occurrence (or
  // every token, when approximate).
  DocId find(DocId candidate) {
    for (;;) {
      candidate = align(candidate);
      if (candidate == kNoMoreDocs) return doc_ = kNoMoreDocs;
      if (approximate_) return doc_ = candidate;
      freq_ = occurrences(candidate, weight_ != nullptr);
      if (freq_ > 0) return checked_ = doc_ = candidate;
      if (no_field_holds_every_token()) return doc_ = kNoMoreDocs;
      candidate = approx_[order_[0]].next();
    }
  }

  // Approximate advance() as a conjunction's child: each token moves once,
  // rarest first, and the first to pass target hands its doc back to the
  // parent, whose own lead is mostly sparser than the tokens together.
  // Aligning every token before returning would find the next doc holding
  // all of them, far beyond where the parent asks next (`abstract:bp "is
  // formed by"` made 4.6 token advances per bp doc). The doc returned may
  // lack a token; confirm() checks.
  DocId advance_once(DocId target) { return doc_ = step_tokens(target); }

  // Moves each token to target once, rarest first: target when every
  // token holds it, else the doc of the first token that passed it.
  DocId step_tokens(DocId target) {
    for (uint32_t i : order_) {
      PostingsCursor& c = approx_[i];
      DocId d = c.doc();
      if (d < target) d = c.advance(target);
      if (d != target) return d;
    }
    return target;
  }

  // Every token's doc from candidate, the lead's, on: the two rarest
  // merged where they are of like length (merge_align.h).
  DocId align(DocId candidate) {
    const size_t n = order_.size();
    if (merge_pair_) {
      return merge_align(approx_[order_[0]], approx_[order_[1]], n,
                         [&](size_t i) -> PostingsCursor& { return approx_[order_[i]]; });
    }
  again:
    if (candidate == kNoMoreDocs) return kNoMoreDocs;
    for (size_t i = 1; i < n; ++i) {
      PostingsCursor& c = approx_[order_[i]];
      DocId d = c.doc();
      if (d < candidate) d = c.advance(candidate);
      if (d > candidate) {
        if (d == kNoMoreDocs) return kNoMoreDocs;
        candidate = approx_[order_[0]].advance(d);
        goto again;
      }
    }
    return candidate;
  }

  // The positional postings of the unique tokens in one field, in approx_'s
  // order; empty when that field is approx_'s own (single-field phrase).
  struct FieldPart {
    std::vector<PostingsCursor> cursors;
  };

  // Once looked up, no field part: the tokens meet only across fields, and
  // no candidate can be confirmed.
  bool no_field_holds_every_token() const { return parts_ready_ && parts_.empty(); }

  // The title and abstract parts of an unqualified phrase, each where the
  // field holds every token.
  void look_up_field_parts() {
    parts_ready_ = true;
    if (field_tokens_.empty()) return;
    for (Field f : {Field::kTitle, Field::kAbstract}) {
      FieldPart part;
      part.cursors.reserve(field_tokens_.size());
      for (std::string_view token : field_tokens_) {
        auto info = segment_->lookup(f, token);
        if (!info) break;
        part.cursors.push_back(segment_->cursor(f, *info));
        part.cursors.back().next();
      }
      if (part.cursors.size() == field_tokens_.size()) parts_.push_back(std::move(part));
    }
  }

  // Occurrences in doc summed over the field parts; with all false, stops
  // at the first.
  uint32_t occurrences(DocId doc, bool all) {
    if (!parts_ready_) look_up_field_parts();
    if (parts_.empty()) return 0;
    uint32_t total = 0;
    for (auto& part : parts_) {
      std::vector<PostingsCursor>& cursors = part.cursors.empty() ? approx_ : part.cursors;
      bool on_doc = true;
      for (auto& c : cursors) {
        DocId d = c.doc();
        if (d < doc) d = c.advance(doc);
        if (d != doc) on_doc = false;  // keep advancing the others: they stay in step
      }
      if (!on_doc) continue;
      for (size_t u = 0; u < cursors.size(); ++u) cursors[u].positions(positions_[u]);
      total += count_in_positions(all);
      if (total > 0 && !all) return total;
    }
    return total;
  }

  uint32_t count_in_positions(bool all) {
    const size_t n = slots_.size();
    std::fill(index_.begin(), index_.end(), 0);
    uint32_t count = 0;
    for (uint32_t start : positions_[slots_[0]]) {
      bool match = true;
      for (size_t i = 1; i < n; ++i) {
        const std::vector<uint32_t>& v = positions_[slots_[i]];
        size_t& j = index_[i];
        const uint32_t want = start + static_cast<uint32_t>(i);
        while (j < v.size() && v[j] < want) ++j;
        if (j == v.size()) return count;  // later starts cannot match either
        if (v[j] != want) {
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

  std::vector<PostingsCursor> approx_;
  std::vector<uint32_t> order_;  // approx_ indices by ascending cost
  bool merge_pair_ = false;      // align() merges order_[0] and order_[1]
  std::vector<uint32_t> slots_;
  std::vector<std::string_view> field_tokens_;
  std::vector<FieldPart> parts_;
  bool parts_ready_ = false;  // field_tokens_ looked up
  const SegmentReader* segment_;
  Field field_;
  const Bm25Weight* weight_;
  float max_score_ = -1;  // not yet computed
  std::string_view label_;
  std::vector<std::vector<uint32_t>> positions_;  // per unique token, reused
  std::vector<size_t> index_;
  uint32_t freq_ = 0;    // occurrences in checked_
  DocId checked_ = kNoMoreDocs;  // the doc freq_ is of
  bool approximate_ = false;
};

}  // namespace fts
