// Intersection by leapfrogging: the rarest child leads, every other child
// advance()s to the candidate, and a child that overshoots makes its doc the
// next candidate. advance() skips whole postings blocks, so very unequal
// sizes cost about the rarest list's length in block jumps. Children with a
// costly check (phrases) are iterated on their approximation and confirmed
// only on docs every child holds. Below an OR that is itself an AND's
// child, or excluded, it iterates two-phase too (lazily): it stops where
// its children first disagree and confirms only the docs its parent asks
// about.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "query/doc_cursor.h"
#include "query/conjunction_steps.h"
#include "query/term_cursor.h"

namespace fts {

class AndCursor final : public DocCursor {
 public:
  // children: >= 2, none empty, in the query's order; reordered here by cost.
  // two_phase: approximate() from the start, so the cursor stops on its
  // first candidate instead of searching for its first match (under an
  // AND that asks about a few docs, that search could read every list to
  // its end).
  // doc_count: of the segment (whether reading matches as bits pays).
  AndCursor(std::vector<std::unique_ptr<DocCursor>> children, uint32_t doc_count, bool two_phase = false)
      : children_(std::move(children)), doc_count_(doc_count), approximate_(two_phase) {
    for (auto& c : children_) in_query_order_.push_back(c.get());
    std::stable_sort(children_.begin(), children_.end(),
                     [](const auto& a, const auto& b) { return a->cost() < b->cost(); });
    for (auto& c : children_)
      if (c->approximate()) confirm_.push_back(c.get());
    for (auto& c : children_) terms_.push_back(dynamic_cast<TermCursor*>(c.get()));
    if (std::find(terms_.begin(), terms_.end(), nullptr) != terms_.end()) terms_.clear();
    merge_pair_ = terms_.size() >= 2 && merge_pays(terms_[0]->cost(), terms_[1]->cost());
    if (approximate_) {
      step_once(children_[0]->doc());
    } else {
      align(children_[0]->doc());
    }
  }

  // A bool would pass as the doc count.
  AndCursor(std::vector<std::unique_ptr<DocCursor>> children, bool two_phase) = delete;

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    if (approximate_) return step_once(doc_ + 1);
    return align(terms_.empty() ? children_[0]->next() : terms_[0]->next());
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    if (approximate_) return step_once(target);
    return align(terms_.empty() ? children_[0]->advance(target) : terms_[0]->advance(target));
  }
  // From now on stop where the children first disagree (step_once());
  // confirm() checks that every child holds the doc.
  bool approximate() override {
    if (!approximate_) {  // found exactly so far
      checked_ = doc_;
      matched_ = true;
    }
    approximate_ = true;
    return true;
  }
  bool confirm() override {
    if (checked_ != doc_) {
      checked_ = doc_;
      matched_ = doc_ != kNoMoreDocs && holds(doc_);
    }
    return matched_;
  }
  uint64_t cost() const override { return children_[0]->cost(); }
  uint64_t work() const override {
    uint64_t w = children_[0]->work();  // the lead (children_ are by cost)
    for (size_t i = 1; i < children_.size(); ++i) w += work_beside_lead(children_[i]->work(), cost());
    return w;
  }
  // Summed in the query's order, not the cost order of this segment: a
  // float sum depends on its order, and a doc must score the same to the
  // bit whichever segment or shard holds it.
  float score() override {
    float s = 0;
    for (DocCursor* c : in_query_order_) s += c->score();
    return s;
  }
  // A conjunction of terms gathers a batch of matches with each term's
  // freq, then scores the batch a term at a time (in the query's order,
  // so each sum is score()'s): `obs see` on the 1M-doc dump spent 40% of
  // its top10 in TermCursor::score(), a virtual call per term and match
  // whose BM25 division the next match's step waited on. Where the two
  // rarest are merged, the merge goes on past each doc they share
  // (PostingsCursor::take_common()), asking the other terms about each.
  size_t take_scored(DocId* docs, float* scores, size_t max) override {
    if (terms_.empty() || approximate_ || max == 0) return DocCursor::take_scored(docs, scores, max);
    const size_t k = terms_.size();
    max = std::min(max, kScoredBatch);
    std::vector<uint32_t>& batch = scratch_freqs();
    if (batch.size() < k * kScoredBatch) batch.resize(k * kScoredBatch);
    auto freqs = [&](size_t t) { return &batch[t * kScoredBatch]; };  // of terms_[t]
    size_t n = 0;
    if (merge_pair_) {
      // The other terms hold d, each moved there (then their freqs are
      // kept as the slot-th), or the first doc one of them holds past it.
      auto others_hold = [&](DocId d, size_t slot) {
        for (size_t t = 2; t < k; ++t) {
          const DocId at = terms_[t]->advance(d);
          if (at != d) return at;
        }
        for (size_t t = 2; t < k; ++t) freqs(t)[slot] = terms_[t]->freq();
        return d;
      };
      // take_common() returns 0 only where no match is left (the pair
      // shares no more docs, or another term ran out), and align() then
      // exhausts the cursor: the loop goes round once.
      while (n == 0 && doc_ != kNoMoreDocs) {
        n = TermCursor::take_common(*terms_[0], *terms_[1], docs, freqs(0), freqs(1), max, others_hold);
        align(terms_[0]->doc());
      }
    } else {
      for (DocId d = doc_; n < max && d != kNoMoreDocs; d = next(), ++n) {
        docs[n] = d;
        for (size_t t = 0; t < k; ++t) freqs(t)[n] = terms_[t]->freq();
      }
    }
    std::fill(scores, scores + n, 0.0f);
    for (DocCursor* c : in_query_order_) {  // a few terms: found, not mapped at construction
      const auto t = static_cast<size_t>(std::find(terms_.begin(), terms_.end(), c) - terms_.begin());
      terms_[t]->add_scores(docs, freqs(t), scores, n);
    }
    return n;
  }
  // Where every child is about as common as the lead (and none is
  // two-phase), each child scores its matches of the window into arrays of
  // its own (an OR child without a heap step per match), and the docs every
  // child marked are summed in the query's order: no leapfrog step or
  // virtual call per match. Else a match at a time.
  bool scores_windows_in_bulk() const override { return windows_pay(); }
  void score_window(DocId base, DocId end, float* scores, uint64_t* matched) override {
    if (!windows_pay()) return score_window_of(*this, base, end, scores, matched);
    if (doc_ >= end) return;
    const size_t n = in_query_order_.size();
    const uint32_t span = end - base;
    const size_t words = (span + 63) / 64;
    window_scores_.resize(n * span);
    window_bits_.assign(n * words, 0);
    for (size_t q = 0; q < n; ++q) {
      in_query_order_[q]->score_window(base, end, &window_scores_[q * span], &window_bits_[q * words]);
    }
    for (size_t w = 0; w < words; ++w) {
      uint64_t common = window_bits_[w];
      for (size_t q = 1; q < n; ++q) common &= window_bits_[q * words + w];
      for (; common != 0; common &= common - 1) {
        const uint32_t i = static_cast<uint32_t>(w * 64 + std::countr_zero(common));
        float sum = 0;
        for (size_t q = 0; q < n; ++q) sum += window_scores_[q * span + i];
        const float before = (matched[w] >> (i & 63) & 1) != 0 ? scores[i] : 0.0f;
        scores[i] = before + sum;
        matched[w] |= uint64_t{1} << (i & 63);
      }
    }
    align(children_[0]->doc());
  }
  float max_score() override { return sum_max_score(children_); }
  Bound block_bound(DocId target) override { return sum_block_bounds(children_, target); }
  // A competitive doc's child scores at least what the others cannot make
  // up: score less their bounds, lowered by a margin for the rounding of
  // float sums. An OR child of open (open OR source OR software) then
  // skips the docs that only open holds.
  // The children's bounds are read once (max_score() may read skip data),
  // at the first call; the score rises many times per query.
  bool set_min_competitive_score(float score) override {
    if (bounds_.empty()) {
      for (const auto& c : children_) bounds_.push_back(c->max_score());
      for (float b : bounds_) bounds_total_ += b;
    }
    bool skips = false;
    for (size_t i = 0; i < children_.size(); ++i) {
      const double others = bounds_total_ - bounds_[i];
      const double floor = double(score) - others - 1e-6 * (std::abs(double(score)) + bounds_total_);
      if (floor > 0) skips = children_[i]->set_min_competitive_score(static_cast<float>(floor)) || skips;
    }
    return skips;
  }
  // DocCursor::take()'s loop, with next() called without a virtual call.
  size_t take(DocId* out, size_t max) override {
    size_t n = 0;
    for (DocId d = doc_; n < max && d != kNoMoreDocs; d = next()) out[n++] = d;
    return n;
  }
  // Counts and collections of the rest visit the matches through bits
  // where that pays (visit_by_bitsets), else step through them.
  uint64_t count_remaining() override {
    uint64_t n = 0;
    if (visit_by_bitsets([&](DocId) { ++n; })) return n;
    return DocCursor::count_remaining();
  }
  uint64_t count_live(const LiveDocs& live) override {
    uint64_t n = 0;
    if (visit_by_bitsets([&](DocId d) { n += live.is_live(d); })) return n;
    return DocCursor::count_live(live);
  }
  void collect_remaining(std::vector<DocId>& out, DocId base) override {
    if (!visit_by_bitsets([&](DocId d) { out.push_back(base + d); })) DocCursor::collect_remaining(out, base);
  }
  void collect_live(std::vector<DocId>& out, DocId base, const LiveDocs& live) override {
    auto keep_live = [&](DocId d) {
      if (live.is_live(d)) out.push_back(base + d);
    };
    if (!visit_by_bitsets(keep_live)) DocCursor::collect_live(out, base, live);
  }
  bool contains(DocId target) override {
    if (target < doc_) return false;
    if (target == doc_) return !approximate_ || confirm();
    for (const auto& c : children_)
      if (!c->contains(target)) return false;
    return true;
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, approximate_ ? "and(two-phase)" : "and", cost());
    for (const auto& c : children_) c->explain(out, depth + 1);
  }

 private:
  // Whether score_window() reads the window child by child: some child is
  // not a term (terms alone are merged or leapfrogged scoring their common
  // docs only: animal rights, 1M-doc dump, 194 us that way, 333 us by
  // windows), the lead holds at least one doc in kDenseLead of the segment
  // (most windows then hold matches) and no child is more than kMaxRatio
  // times as common (its matches outside the lead's are scored for
  // nothing).
  bool windows_pay() const {
    constexpr uint64_t kDenseLead = 256, kMaxRatio = 8;
    if (!terms_.empty() || approximate_ || !confirm_.empty()) return false;
    const uint64_t lead = children_[0]->cost();
    if (lead * kDenseLead < doc_count_) return false;
    return std::all_of(children_.begin(), children_.end(),
                       [&](const auto& c) { return c->cost() <= kMaxRatio * lead; });
  }

  // Smallest doc >= candidate (the lead's doc) that every child holds:
  // first on the children's approximations, then confirmed by the
  // two-phase children, rarest first. A conjunction of terms (the common
  // case) leapfrogs through the final TermCursor, whose advance() inlines
  // instead of a virtual call per candidate, or merges its two rarest
  // where they are of like length (conjunction_steps.h).
  DocId align(DocId candidate) {
    for (;;) {
      auto term = [&](size_t i) -> TermCursor& { return *terms_[i]; };
      if (merge_pair_) {  // candidate is terms_[0]'s doc
        candidate = merge_align(*terms_[0], *terms_[1], terms_.size(), term);
      } else {
        candidate = terms_.empty() ? leapfrog(children_.size(), [&](size_t i) -> DocCursor& { return *children_[i]; }, candidate)
                                   : leapfrog(terms_.size(), term, candidate);
      }
      if (candidate == kNoMoreDocs ||
          std::all_of(confirm_.begin(), confirm_.end(), [](DocCursor* c) { return c->confirm(); }))
        return doc_ = candidate;
      candidate = children_[0]->next();
    }
  }

  // Approximate iteration: each child moves to target once, cheapest
  // first, and the first to pass it gives the candidate (as
  // PhraseCursor::advance_once() does with its tokens).
  DocId step_once(DocId target) { return doc_ = step_children(target); }

  // target when every child's approximation holds it, else the doc of the
  // first child (cheapest first) that passed it.
  DocId step_children(DocId target) {
    return step_each(children_.size(), [&](size_t i) -> DocCursor& { return *children_[i]; }, target);
  }

  // Whether every child holds doc, each moved to it and the two-phase
  // ones confirmed.
  bool holds(DocId doc) {
    if (step_children(doc) != doc) return false;
    for (DocCursor* c : confirm_) {
      if (!c->confirm()) return false;
    }
    return true;
  }

  // The matches of a cursor from its doc() on, as bits from a first word on,
  // filled a block of docs at a time.
  struct Bits {
    std::vector<uint64_t> words;
    size_t size = 0;  // words in use
    DocId first_word = 0;
    bool in_use = false;
    bool has(DocId d) const {
      const DocId w = (d >> 6) - first_word;  // wraps below first_word: then >= size
      return w < size && (words[w] >> (d & 63) & 1);
    }
    void fill(DocCursor& c) {
      size = 0;
      DocId batch[kBlockSize];
      while (const size_t got = c.take(batch, kBlockSize)) {
        if (size == 0) first_word = batch[0] >> 6;
        const size_t need = (batch[got - 1] >> 6) - first_word + 1;
        if (words.size() < need) words.resize(std::max(need, 2 * words.size()));
        if (need > size) {
          std::fill(words.begin() + static_cast<std::ptrdiff_t>(size), words.begin() + static_cast<std::ptrdiff_t>(need), 0);
          size = need;
        }
        for (size_t i = 0; i < got; ++i) words[(batch[i] >> 6) - first_word] |= uint64_t(1) << (batch[i] & 63);
      }
    }
  };

  // take_scored()'s freqs, kScoredBatch per term of terms_: one per
  // thread, kept from query to query.
  static std::vector<uint32_t>& scratch_freqs() {
    thread_local std::vector<uint32_t> freqs;
    return freqs;
  }

  // One per thread, kept from query to query: no allocation once warm, and
  // at most a segment's docs / 8 bytes.
  static Bits& scratch_bits() {
    thread_local Bits bits;
    return bits;
  }

  // Reading every match of a conjunction of exact children whose second
  // rarest is not much longer than the lead: that child's matches become
  // bits, a block at a time, and the lead's matches are looked up in them;
  // only the docs both hold are advanced to in the other children.
  // Leapfrogging pays a virtual advance() per candidate of the lead instead
  // (`obs see` on the 1M-doc dump: 157,253 and 161,453 docs, 45,463
  // matches). The bits cost a word per 64 doc ids the second child spans,
  // about the segment: they pay from a lead of one doc in 1,024 on (a
  // fixed 2,048 docs left the 50,000-doc segments of a 20-segment index
  // leapfrogging `animal rights`, 5x the time per posting of the bits).
  // A second child up to 16 times as long as the lead still pays: a
  // posting of it costs about 1 ns to set as a bit, a leapfrog step into
  // it some 30 (`or not` on the 6M-doc dump, 611,031 and 3,317,365 docs:
  // 17.0 -> 9.0 ms; 64 times lost on mixed.txt and field.txt).
  // Calls visit(d) for each match from doc() on, consuming the cursor;
  // false (and nothing consumed) where it does not pay.
  template <class Visit>
  bool visit_by_bitsets(Visit&& visit) {
    constexpr uint64_t kDocsPerLeadDoc = 1024, kMaxRatio = 16;
    const uint64_t lead_cost = children_[0]->cost();
    if (doc_ == kNoMoreDocs || approximate_ || !confirm_.empty() || lead_cost * kDocsPerLeadDoc < doc_count_ ||
        children_[1]->cost() > kMaxRatio * lead_cost) {
      return false;
    }
    Bits& second = scratch_bits();
    if (second.in_use) return false;  // a conjunction inside a child's take(): none today
    second.in_use = true;
    struct Release {
      Bits& bits;
      ~Release() { bits.in_use = false; }
    } release{second};
    second.fill(*children_[1]);
    const size_t n = children_.size();
    DocId batch[kBlockSize];
    while (const size_t got = children_[0]->take(batch, kBlockSize)) {
      for (size_t i = 0; i < got; ++i) {
        const DocId d = batch[i];
        if (!second.has(d)) continue;
        size_t k = 2;
        for (; k < n; ++k) {
          DocCursor* c = children_[k].get();
          const DocId at = c->doc() < d ? c->advance(d) : c->doc();
          if (at == kNoMoreDocs) goto done;  // no later doc can match
          if (at != d) break;
        }
        if (k == n) visit(d);
      }
    }
  done:
    doc_ = kNoMoreDocs;
    return true;
  }

  std::vector<std::unique_ptr<DocCursor>> children_;
  std::vector<DocCursor*> in_query_order_;
  std::vector<DocCursor*> confirm_;  // the two-phase children, by cost
  std::vector<TermCursor*> terms_;   // children_ when every one is a term, else empty
  // take_scored()'s most matches a call: a block, as the searcher asks.
  static constexpr size_t kScoredBatch = kBlockSize;
  std::vector<float> bounds_;        // set_min_competitive_score()'s: max_score() per child
  std::vector<float> window_scores_;   // score_window()'s, per child in query order
  std::vector<uint64_t> window_bits_;  // score_window()'s, per child in query order
  double bounds_total_ = 0;
  uint32_t doc_count_;
  bool merge_pair_ = false;  // align() merges terms_[0] and terms_[1]
  bool approximate_ = false;
  bool matched_ = false;           // confirm()'s answer for checked_
  DocId checked_ = kNoMoreDocs;    // the doc matched_ is of
};

}  // namespace fts
