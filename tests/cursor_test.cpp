// Each cursor against std::set arithmetic on random postings written by
// PostingsWriter: next/advance across 128-doc block borders, AND/OR/AND-NOT
// composition, the bitset and dominant ORs, all-docs, bitmap and phrase
// cursors (repeated tokens included).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <vector>

#include "index/format/file_format.h"
#include "index/format/live_docs.h"
#include "index/format/postings.h"
#include "query/all_docs_cursor.h"
#include "query/and_cursor.h"
#include "query/and_not_cursor.h"
#include "query/bitmap_cursor.h"
#include "query/bitset_or_cursor.h"
#include "query/dominant_or_cursor.h"
#include "query/or_cursor.h"
#include "query/phrase_cursor.h"
#include "query/term_cursor.h"

namespace fts {
namespace {

constexpr uint32_t kDocs = 5000;

// Postings of several terms in memory, with per-doc positions.
class MemoryPostings {
 public:
  // positions[t][i]: positions of term t in its i-th doc.
  uint32_t add(const std::vector<DocId>& docs, const std::vector<std::vector<uint32_t>>& positions) {
    PostingsWriter writer(postings_, &positions_);
    std::vector<uint32_t> freqs, flat;
    for (const auto& p : positions) {
      freqs.push_back(static_cast<uint32_t>(p.size()));
      flat.insert(flat.end(), p.begin(), p.end());
    }
    infos_.push_back(writer.write(docs, freqs, flat));
    return static_cast<uint32_t>(infos_.size() - 1);
  }
  uint32_t add(const std::vector<DocId>& docs) {
    std::vector<std::vector<uint32_t>> positions(docs.size(), std::vector<uint32_t>{0});
    return add(docs, positions);
  }

  PostingsCursor cursor(uint32_t term) const {
    return PostingsCursor(bytes(postings_), bytes(positions_), infos_[term], "memory");
  }
  std::unique_ptr<DocCursor> term(uint32_t t) const {
    return std::make_unique<TermCursor>(cursor(t), nullptr, Field::kTitle, nullptr, "t");
  }

 private:
  static std::span<const uint8_t> bytes(const VectorSink& sink) {
    return {reinterpret_cast<const uint8_t*>(sink.bytes.data()), sink.bytes.size()};
  }
  VectorSink postings_, positions_;
  std::vector<TermInfo> infos_;
};

std::vector<DocId> random_docs(std::mt19937& rng, double density) {
  std::vector<DocId> out;
  std::bernoulli_distribution keep(density);
  for (DocId d = 0; d < kDocs; ++d)
    if (keep(rng)) out.push_back(d);
  if (out.empty()) out.push_back(rng() % kDocs);
  return out;
}

std::vector<DocId> drain(DocCursor& c) {
  std::vector<DocId> out;
  for (DocId d = c.doc(); d != kNoMoreDocs; d = c.next()) out.push_back(d);
  return out;
}

// Random next()/advance() steps, each checked against the sorted expectation.
void check_steps(DocCursor& c, const std::vector<DocId>& expected, std::mt19937& rng) {
  auto it = expected.begin();
  ASSERT_EQ(c.doc(), it == expected.end() ? kNoMoreDocs : *it);
  while (c.doc() != kNoMoreDocs) {
    if (rng() % 2) {
      ++it;
      ASSERT_EQ(c.next(), it == expected.end() ? kNoMoreDocs : *it);
    } else {
      // Targets near block borders, far jumps and near ones.
      DocId target;
      switch (rng() % 3) {
        case 0: target = c.doc() + 1 + rng() % 3; break;
        case 1: target = c.doc() + 1 + rng() % 400; break;
        default: target = ((c.doc() / 128) + 1) * 128 - 1 + rng() % 3; break;
      }
      it = std::lower_bound(it, expected.end(), target);
      ASSERT_EQ(c.advance(target), it == expected.end() ? kNoMoreDocs : *it) << "target " << target;
    }
    // A target at or before the current doc leaves the cursor in place.
    if (c.doc() != kNoMoreDocs && c.doc() > 0) {
      ASSERT_EQ(c.advance(c.doc() - 1), *it);
    }
  }
  EXPECT_EQ(c.next(), kNoMoreDocs);
  EXPECT_EQ(c.advance(kDocs), kNoMoreDocs);
}

// Steps a two-phase cursor as an AND does: its docs ascend, none skips a
// match the steps asked about, and confirm() holds exactly on matches.
void check_two_phase_steps(DocCursor& c, const std::vector<DocId>& expected, std::mt19937& rng) {
  ASSERT_TRUE(c.approximate());
  DocId from = 0;  // the first doc the cursor must not have passed a match from
  size_t confirmed = 0;
  for (DocId prev = 0;; prev = c.doc()) {
    const DocId d = c.doc();
    auto it = std::lower_bound(expected.begin(), expected.end(), from);
    ASSERT_TRUE(it == expected.end() || *it >= d) << "skipped match " << *it << " landing on " << d;
    if (d == kNoMoreDocs) break;
    ASSERT_TRUE(d >= prev);
    const bool match = std::binary_search(expected.begin(), expected.end(), d);
    ASSERT_EQ(c.confirm(), match) << "doc " << d;
    ASSERT_EQ(c.confirm(), match) << "doc " << d << ", asked again";
    confirmed += match;
    if (rng() % 2) {
      from = d + 1;
      ASSERT_GT(c.next(), d);
    } else {
      from = d + 1 + (rng() % 2 ? rng() % 3 : rng() % 40);
      ASSERT_GE(c.advance(from), from);
    }
  }
  EXPECT_TRUE(confirmed > 0 || expected.size() < 20) << "of " << expected.size() << " matches";
}

// Probes contains() at increasing targets (some repeated), as AND-NOT does.
void check_probes(DocCursor& c, const std::vector<DocId>& expected, std::mt19937& rng) {
  for (DocId t = rng() % 3; t < kDocs + 5; t += rng() % 4) {
    ASSERT_EQ(c.contains(t), std::binary_search(expected.begin(), expected.end(), t)) << "target " << t;
  }
}

bool in(const std::vector<DocId>& set, DocId d) { return std::binary_search(set.begin(), set.end(), d); }

std::vector<DocId> intersect(const std::vector<DocId>& a, const std::vector<DocId>& b) {
  std::vector<DocId> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
std::vector<DocId> unite(const std::vector<DocId>& a, const std::vector<DocId>& b) {
  std::vector<DocId> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}
std::vector<DocId> subtract(const std::vector<DocId>& a, const std::vector<DocId>& b) {
  std::vector<DocId> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

class CursorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::mt19937 rng(7);
    for (double density : {0.001, 0.01, 0.05, 0.2, 0.5, 0.9}) {
      sets_.push_back(random_docs(rng, density));
      terms_.push_back(postings_.add(sets_.back()));
    }
  }
  MemoryPostings postings_;
  std::vector<std::vector<DocId>> sets_;
  std::vector<uint32_t> terms_;
  std::mt19937 rng_{11};
};

TEST_F(CursorTest, TermCursorStepsAcrossBlocks) {
  for (size_t t = 0; t < terms_.size(); ++t) {
    auto c = postings_.term(terms_[t]);
    EXPECT_EQ(c->cost(), sets_[t].size());
    check_steps(*c, sets_[t], rng_);
    EXPECT_EQ(postings_.term(terms_[t])->count_remaining(), sets_[t].size());
  }
}

TEST_F(CursorTest, AndOfEveryPairAndTriple) {
  for (size_t a = 0; a < terms_.size(); ++a) {
    for (size_t b = a + 1; b < terms_.size(); ++b) {
      std::vector<std::unique_ptr<DocCursor>> kids;
      kids.push_back(postings_.term(terms_[b]));  // dense first: AND must reorder
      kids.push_back(postings_.term(terms_[a]));
      AndCursor c(std::move(kids), kDocs);
      check_steps(c, intersect(sets_[a], sets_[b]), rng_);
    }
  }
  std::vector<std::unique_ptr<DocCursor>> kids;
  for (size_t t : {3, 4, 5}) kids.push_back(postings_.term(terms_[t]));
  AndCursor c(std::move(kids), kDocs);
  EXPECT_EQ(drain(c), intersect(intersect(sets_[3], sets_[4]), sets_[5]));
}

// Ranking every match reads a conjunction of terms in batches: merged past
// each doc the two rarest share, the others asked about each
// (PostingsCursor::take_common()), or led by a much rarer term. Batches of
// every size return each match once, in order, across block ends. (Scores:
// QueryPropertyTest, against brute force.)
TEST_F(CursorTest, TakeScoredReturnsEveryMatchOnceInOrder) {
  const std::vector<std::vector<size_t>> conjunctions = {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {0, 5},
                                                         {1, 2, 3}, {3, 4, 5}, {2, 3, 5}, {2, 4, 5, 3}};
  for (const auto& terms : conjunctions) {
    std::vector<DocId> expected = sets_[terms[0]];
    for (size_t t : terms) expected = intersect(expected, sets_[t]);
    for (const size_t batch : {size_t{1}, size_t{7}, size_t{128}}) {
      std::vector<std::unique_ptr<DocCursor>> kids;
      for (size_t t : terms) kids.push_back(postings_.term(terms_[t]));
      AndCursor c(std::move(kids), kDocs);
      std::vector<DocId> docs(batch), taken;
      std::vector<float> scores(batch);
      while (const size_t n = c.take_scored(docs.data(), scores.data(), batch)) {
        ASSERT_LE(n, batch);
        taken.insert(taken.end(), docs.begin(), docs.begin() + static_cast<std::ptrdiff_t>(n));
      }
      EXPECT_EQ(taken, expected) << "terms " << terms.size() << ", first " << terms[0] << ", batch " << batch;
      EXPECT_EQ(c.doc(), kNoMoreDocs);
    }
  }
}

// Built two-phase (an AND below an OR below an AND, or an excluded one),
// a conjunction stops where its children first disagree: stepped as its
// parent steps it, or probed.
TEST_F(CursorTest, TwoPhaseAndStepsAndProbes) {
  for (size_t a = 0; a < terms_.size(); ++a) {
    for (size_t b = a + 1; b < terms_.size(); ++b) {
      for (bool probe : {false, true}) {
        std::vector<std::unique_ptr<DocCursor>> kids;
        kids.push_back(postings_.term(terms_[b]));
        kids.push_back(postings_.term(terms_[a]));
        AndCursor c(std::move(kids), kDocs, true);
        if (probe) {
          check_probes(c, intersect(sets_[a], sets_[b]), rng_);
        } else {
          check_two_phase_steps(c, intersect(sets_[a], sets_[b]), rng_);
        }
      }
    }
  }
}

// A list of docs that each score the same: scores without norms.
class ListCursor final : public DocCursor {
 public:
  ListCursor(std::vector<DocId> docs, float score) : docs_(std::move(docs)), score_(score) { doc_ = at(0); }
  DocId next() override { return doc_ = at(++i_); }
  DocId advance(DocId target) override {
    if (target <= doc_) return doc_;
    i_ = static_cast<size_t>(std::lower_bound(docs_.begin(), docs_.end(), target) - docs_.begin());
    return doc_ = at(i_);
  }
  uint64_t cost() const override { return docs_.size(); }
  float score() override { return score_; }
  float max_score() override { return score_; }
  void explain(std::string&, int) const override {}

 private:
  DocId at(size_t i) const { return i < docs_.size() ? docs_[i] : kNoMoreDocs; }
  std::vector<DocId> docs_;
  size_t i_ = 0;
  float score_;
};

// a (a OR b OR c), a scoring 1 and b, c 5: told that only docs of more
// than 6.5 compete, the OR leaves a out (1 + 1 < 6.5) and the AND then
// holds the docs of a and (b or c) only, each with its full score. Below
// what a alone reaches nothing is left out; above what all reach, all is.
TEST_F(CursorTest, MinCompetitiveScoreLeavesOutWhatCannotCompete) {
  const std::vector<DocId>&a = sets_[4], &b = sets_[1], &c = sets_[2];
  auto conjunction = [&] {
    std::vector<std::unique_ptr<DocCursor>> either;
    either.push_back(std::make_unique<ListCursor>(a, 1.0f));
    either.push_back(std::make_unique<ListCursor>(b, 5.0f));
    either.push_back(std::make_unique<ListCursor>(c, 5.0f));
    std::vector<std::unique_ptr<DocCursor>> both;
    both.push_back(std::make_unique<ListCursor>(a, 1.0f));
    both.push_back(std::make_unique<OrCursor>(std::move(either)));
    return AndCursor(std::move(both), kDocs);
  };
  {
    AndCursor both = conjunction();
    EXPECT_FALSE(both.set_min_competitive_score(0.5f));
    EXPECT_EQ(drain(both), a);
  }
  {
    AndCursor both = conjunction();
    EXPECT_TRUE(both.set_min_competitive_score(6.5f));
    // It stays on the doc it stood on when told; from the next on, only
    // docs that b or c holds.
    std::vector<DocId> expected;
    for (DocId d : intersect(a, unite(b, c)))
      if (d > a.front()) expected.push_back(d);
    std::vector<DocId> got;
    for (DocId d = both.next(); d != kNoMoreDocs; d = both.next()) {
      EXPECT_FLOAT_EQ(both.score(), 2.0f + 5.0f * in(b, d) + 5.0f * in(c, d)) << d;
      got.push_back(d);
    }
    EXPECT_EQ(got, expected);
  }
  {
    AndCursor both = conjunction();
    EXPECT_TRUE(both.set_min_competitive_score(100.0f));
    both.next();
    EXPECT_EQ(both.doc(), kNoMoreDocs);
  }
}

// Two clauses scored into one window whose slots hold stale values (the
// window scorer reuses its array, and reads a slot before knowing whether
// a clause before matched there): each matched slot ends up the sum from
// 0 in clause order, whatever it held, with its bit set; the cursors stop
// at their first doc past the window.
TEST_F(CursorTest, ScoreWindowSumsInClauseOrderOverStaleSlots) {
  const std::vector<DocId>&a = sets_[3], &b = sets_[4];  // a fifth and half the docs: many in both
  ListCursor first(a, 0.3f), second(b, 0.7f);
  constexpr DocId kBase = 1000, kEnd = 3048;
  constexpr uint32_t kSpan = kEnd - kBase;
  std::vector<float> scores(kSpan);
  for (uint32_t i = 0; i < kSpan; ++i) scores[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN() : 1e30f;
  std::vector<uint64_t> matched((kSpan + 63) / 64, 0);
  first.advance(kBase);
  second.advance(kBase);
  first.score_window(kBase, kEnd, scores.data(), matched.data());
  second.score_window(kBase, kEnd, scores.data(), matched.data());
  size_t marked = 0;
  for (uint32_t i = 0; i < kSpan; ++i) {
    const DocId d = kBase + i;
    const bool in_a = in(a, d), in_b = in(b, d);
    const bool bit = (matched[i >> 6] >> (i & 63) & 1) != 0;
    ASSERT_EQ(bit, in_a || in_b) << d;
    if (!bit) continue;
    ++marked;
    float expected = 0.0f;
    if (in_a) expected += 0.3f;
    if (in_b) expected += 0.7f;
    EXPECT_EQ(scores[i], expected) << d;
  }
  EXPECT_GT(marked, 0u);
  EXPECT_GE(first.doc(), kEnd);
  EXPECT_GE(second.doc(), kEnd);
}

TEST_F(CursorTest, HeapOrAndBitsetOrAgree) {
  std::vector<DocId> expected;
  std::vector<std::unique_ptr<DocCursor>> heap_kids, bitset_kids;
  for (size_t t = 0; t < 4; ++t) {
    expected = unite(expected, sets_[t]);
    heap_kids.push_back(postings_.term(terms_[t]));
    bitset_kids.push_back(postings_.term(terms_[t]));
  }
  OrCursor heap(std::move(heap_kids));
  check_steps(heap, expected, rng_);
  std::vector<std::unique_ptr<DocCursor>> probed_kids;
  for (size_t t = 0; t < 4; ++t) probed_kids.push_back(postings_.term(terms_[t]));
  OrCursor probed(std::move(probed_kids));
  check_probes(probed, expected, rng_);
  BitsetOrCursor bitset(std::move(bitset_kids), kDocs, false);
  EXPECT_EQ(bitset.cost(), expected.size());
  check_steps(bitset, expected, rng_);
}

// Damaged postings can name docs past the segment's end: the bitset union
// refuses them (an IndexError) rather than write outside its bits, whether
// it reads its children a batch at a time (no scores) or doc by doc.
TEST_F(CursorTest, BitsetOrRejectsDocsPastTheSegment) {
  for (bool scoring : {false, true}) {
    std::vector<std::unique_ptr<DocCursor>> kids;
    for (size_t t = 0; t < 2; ++t) kids.push_back(postings_.term(terms_[t]));
    const DocId last = std::max(sets_[0].back(), sets_[1].back());
    EXPECT_THROW(BitsetOrCursor(std::move(kids), last, scoring), IndexError) << "scoring " << scoring;
  }
}

TEST_F(CursorTest, AndNotExcludes) {
  for (size_t a = 0; a < terms_.size(); ++a) {
    for (size_t b = 0; b < terms_.size(); ++b) {
      if (a == b) continue;
      AndNotCursor c(postings_.term(terms_[a]), postings_.term(terms_[b]));
      check_steps(c, subtract(sets_[a], sets_[b]), rng_);
      AndNotCursor probed(postings_.term(terms_[a]), postings_.term(terms_[b]));
      check_probes(probed, subtract(sets_[a], sets_[b]), rng_);
    }
  }
}

TEST_F(CursorTest, AllDocsMinusNestedUnion) {
  std::vector<std::unique_ptr<DocCursor>> kids;
  kids.push_back(postings_.term(terms_[1]));
  kids.push_back(postings_.term(terms_[3]));
  AndNotCursor c(std::make_unique<AllDocsCursor>(kDocs), std::make_unique<OrCursor>(std::move(kids)));
  std::vector<DocId> all(kDocs);
  for (DocId d = 0; d < kDocs; ++d) all[d] = d;
  check_steps(c, subtract(all, unite(sets_[1], sets_[3])), rng_);
  // Counting a complement (docs left minus exclusions left) at any point.
  const std::vector<DocId> complement = subtract(all, sets_[2]);
  for (size_t skip : {size_t{0}, size_t{1}, size_t{700}, complement.size() - 1}) {
    AndNotCursor counted(std::make_unique<AllDocsCursor>(kDocs), postings_.term(terms_[2]));
    for (size_t i = 0; i < skip; ++i) counted.next();
    EXPECT_EQ(counted.count_remaining(), complement.size() - skip) << skip;
    EXPECT_EQ(counted.doc(), kNoMoreDocs);
  }
  // Probing a complement whose exclusion was walked past the probes at
  // construction (a doc before doc() is never a match).
  std::vector<std::unique_ptr<DocCursor>> dense;
  dense.push_back(postings_.term(terms_[5]));
  dense.push_back(postings_.term(terms_[4]));
  auto rare_complement = std::make_unique<AndNotCursor>(std::make_unique<AllDocsCursor>(kDocs),
                                                       std::make_unique<OrCursor>(std::move(dense)));
  AndNotCursor nested(postings_.term(terms_[3]), std::move(rare_complement));
  check_steps(nested, intersect(sets_[3], unite(sets_[5], sets_[4])), rng_);
  AllDocsCursor everything(kDocs);
  check_steps(everything, all, rng_);
  EXPECT_EQ(AllDocsCursor(0).doc(), kNoMoreDocs);
}

TEST_F(CursorTest, BitmapCursorIteratesRoaring) {
  auto bitmap = std::make_shared<Roaring>();
  for (DocId d : sets_[3]) bitmap->add(d);
  BitmapCursor c(bitmap);
  EXPECT_EQ(c.cost(), sets_[3].size());
  check_steps(c, sets_[3], rng_);
  EXPECT_EQ(BitmapCursor(bitmap).count_remaining(), sets_[3].size());
}

TEST_F(CursorTest, EmptyChildrenAndExhaustion) {
  std::vector<std::unique_ptr<DocCursor>> kids;
  kids.push_back(postings_.term(terms_[5]));
  kids.push_back(std::make_unique<EmptyCursor>());
  AndCursor c(std::move(kids), kDocs);
  EXPECT_EQ(c.doc(), kNoMoreDocs);
  AndNotCursor n(postings_.term(terms_[2]), std::make_unique<EmptyCursor>());
  EXPECT_EQ(drain(n), sets_[2]);
}

// Bulk reads: take() in batches of any size, and count_live() and
// collect_live() under random live docs, from the start and from partway,
// against the filtered iteration of the same cursor. Covers the
// overrides (term, bitset OR, all docs, complement) and the defaults.
TEST_F(CursorTest, BulkReadsAgreeWithIteration) {
  std::vector<DocId> all(kDocs);
  for (DocId d = 0; d < kDocs; ++d) all[d] = d;
  using Make = std::function<std::unique_ptr<DocCursor>()>;
  auto or_of = [&](bool bitset) {
    std::vector<std::unique_ptr<DocCursor>> kids;
    for (size_t t : {1, 2, 3}) kids.push_back(postings_.term(terms_[t]));
    return bitset ? std::unique_ptr<DocCursor>(std::make_unique<BitsetOrCursor>(std::move(kids), kDocs, false))
                  : std::unique_ptr<DocCursor>(std::make_unique<OrCursor>(std::move(kids)));
  };
  const std::vector<DocId> union123 = unite(unite(sets_[1], sets_[2]), sets_[3]);
  std::vector<std::pair<Make, std::vector<DocId>>> cases = {
      {[&] { return postings_.term(terms_[0]); }, sets_[0]},
      {[&] { return postings_.term(terms_[4]); }, sets_[4]},
      {[&] { return postings_.term(terms_[5]); }, sets_[5]},
      {[&] { return or_of(true); }, union123},
      {[&] { return or_of(false); }, union123},
      {[&] { return std::make_unique<AllDocsCursor>(kDocs); }, all},
      {[&] {
         return std::make_unique<AndNotCursor>(std::make_unique<AllDocsCursor>(kDocs), postings_.term(terms_[4]));
       },
       subtract(all, sets_[4])},
      {[&] { return std::make_unique<AndNotCursor>(postings_.term(terms_[5]), postings_.term(terms_[3])); },
       subtract(sets_[5], sets_[3])},
  };
  std::bernoulli_distribution deleted(0.3);
  for (size_t k = 0; k < cases.size(); ++k) {
    const auto& [make, expected] = cases[k];
    LiveDocs live(kDocs);
    for (DocId d = 0; d < kDocs; ++d)
      if (deleted(rng_)) live.remove(d);
    for (size_t skip : {size_t{0}, size_t{1}, size_t{130}, expected.size() / 2, expected.size() - 1}) {
      if (skip >= expected.size()) continue;
      const std::vector<DocId> rest(expected.begin() + static_cast<std::ptrdiff_t>(skip), expected.end());
      std::vector<DocId> live_rest;
      for (DocId d : rest)
        if (live.is_live(d)) live_rest.push_back(d);
      auto start = [&] {
        auto c = make();
        for (size_t i = 0; i < skip; ++i) c->next();
        return c;
      };
      auto c = start();
      std::vector<DocId> taken(rest.size() + 1);
      size_t got = 0;
      for (size_t batch = 1; const size_t n = c->take(taken.data() + got, std::min(batch, taken.size() - got));
           batch = batch * 3 % 200 + 1) {
        got += n;
      }
      taken.resize(got);
      EXPECT_EQ(taken, rest) << "case " << k << " skip " << skip;
      EXPECT_EQ(c->doc(), kNoMoreDocs);
      EXPECT_EQ(start()->count_live(live), live_rest.size()) << "case " << k << " skip " << skip;
      std::vector<DocId> collected = {42};  // appended to, with the base added
      start()->collect_live(collected, 1000, live);
      ASSERT_EQ(collected.size(), live_rest.size() + 1) << "case " << k << " skip " << skip;
      for (size_t i = 0; i < live_rest.size(); ++i) ASSERT_EQ(collected[i + 1], live_rest[i] + 1000);
      std::vector<DocId> all_collected;
      start()->collect_remaining(all_collected, 0);
      EXPECT_EQ(all_collected, rest) << "case " << k << " skip " << skip;
    }
  }
}

// A union of one big clause and the rest: counted by probing the big one
// (known count) or by iterating (no known count), collected by merging
// batches (a rest denser than big too, whose docs within one of big's
// batches overflow one merge chunk), counted and collected among deleted
// docs, and stepped through, from the start and from partway, against
// std::set arithmetic.
TEST(DominantOrCursor, CountsCollectsAndIteratesTheUnion) {
  constexpr DocId kWide = 60000;
  std::mt19937 rng(5);
  MemoryPostings postings;
  std::vector<std::vector<DocId>> sets;
  for (double density : {0.9, 0.3, 0.01, 0.002, 0.6}) {
    std::vector<DocId> docs;
    std::bernoulli_distribution keep(density);
    for (DocId d = 0; d < kWide; ++d)
      if (keep(rng)) docs.push_back(d);
    sets.push_back(docs);
    postings.add(docs);
  }
  LiveDocs live(kWide);
  std::bernoulli_distribution deleted(0.2);
  for (DocId d = 0; d < kWide; ++d)
    if (deleted(rng)) live.remove(d);
  // {big, rest...}; big_is_or: big is an OR of terms 3 and 2 (no known count).
  struct Case {
    std::vector<uint32_t> terms;
    bool big_is_or;
  };
  const std::vector<Case> cases = {{{0, 2}, false}, {{0, 2, 3}, false}, {{1, 3}, false},
                                   {{2, 4}, false},  {{3, 1, 4}, false}, {{1, 4}, true}};
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    std::vector<DocId> expected = c.big_is_or ? unite(sets[3], sets[2]) : sets[c.terms[0]];
    for (size_t i = 1; i < c.terms.size(); ++i) expected = unite(expected, sets[c.terms[i]]);
    auto make = [&] {
      std::unique_ptr<DocCursor> big;
      if (c.big_is_or) {
        std::vector<std::unique_ptr<DocCursor>> kids;
        kids.push_back(postings.term(3));
        kids.push_back(postings.term(2));
        big = std::make_unique<OrCursor>(std::move(kids));
      } else {
        big = postings.term(c.terms[0]);
      }
      std::vector<std::unique_ptr<DocCursor>> rest;
      for (size_t i = 1; i < c.terms.size(); ++i) rest.push_back(postings.term(c.terms[i]));
      std::unique_ptr<DocCursor> rest_union =
          rest.size() == 1 ? std::move(rest[0]) : std::make_unique<OrCursor>(std::move(rest));
      return std::make_unique<DominantOrCursor>(std::move(big), std::move(rest_union));
    };
    EXPECT_EQ(drain(*make()), expected) << "case " << k;
    check_steps(*make(), expected, rng);
    for (size_t skip : {size_t{0}, size_t{1}, expected.size() / 3, expected.size() - 1}) {
      auto start = [&] {
        auto cursor = make();
        for (size_t i = 0; i < skip; ++i) cursor->next();
        return cursor;
      };
      const std::vector<DocId> rest(expected.begin() + static_cast<std::ptrdiff_t>(skip), expected.end());
      std::vector<DocId> live_rest;
      for (DocId d : rest)
        if (live.is_live(d)) live_rest.push_back(d);
      auto counted = start();
      EXPECT_EQ(counted->count_remaining(), rest.size()) << "case " << k << " skip " << skip;
      EXPECT_EQ(counted->doc(), kNoMoreDocs);
      EXPECT_EQ(start()->count_live(live), live_rest.size()) << "case " << k << " skip " << skip;
      std::vector<DocId> all = {7}, kept = {7};  // appended to, with the base added
      start()->collect_remaining(all, 100000);
      start()->collect_live(kept, 100000, live);
      std::vector<DocId> want_all = {7}, want_kept = {7};
      for (DocId d : rest) want_all.push_back(d + 100000);
      for (DocId d : live_rest) want_kept.push_back(d + 100000);
      EXPECT_EQ(all, want_all) << "case " << k << " skip " << skip;
      EXPECT_EQ(kept, want_kept) << "case " << k << " skip " << skip;
    }
  }
}

// Counting a conjunction of long lists turns all but the lead into bits:
// pairs and triples of dense and sparse lists over 60,000 docs, counted
// from the start and from partway, all docs live and some deleted, against
// the matches the same conjunction steps through.
TEST(AndCursorCount, DenseConjunctionsCountWhatTheyIterate) {
  constexpr DocId kWide = 60000;
  std::mt19937 rng(3);
  MemoryPostings postings;
  std::vector<uint32_t> terms;
  for (double density : {0.05, 0.3, 0.5, 0.9, 0.004}) {
    std::vector<DocId> docs;
    std::bernoulli_distribution keep(density);
    for (DocId d = 0; d < kWide; ++d)
      if (keep(rng)) docs.push_back(d);
    terms.push_back(postings.add(docs));
  }
  LiveDocs live(kWide);
  std::bernoulli_distribution deleted(0.2);
  for (DocId d = 0; d < kWide; ++d)
    if (deleted(rng)) live.remove(d);
  const std::vector<std::vector<size_t>> conjunctions = {{1, 2}, {2, 3}, {0, 3}, {1, 2, 3}, {3, 0, 1}, {4, 3}, {2, 4}};
  for (const auto& kids : conjunctions) {
    auto make = [&] {
      std::vector<std::unique_ptr<DocCursor>> children;
      for (size_t t : kids) children.push_back(postings.term(terms[t]));
      return std::make_unique<AndCursor>(std::move(children), kWide);
    };
    const std::vector<DocId> matches = drain(*make());
    ASSERT_FALSE(matches.empty());
    for (size_t skip : {size_t{0}, size_t{1}, matches.size() / 3, matches.size() - 1}) {
      auto start = [&] {
        auto c = make();
        for (size_t i = 0; i < skip; ++i) c->next();
        return c;
      };
      const size_t live_left = static_cast<size_t>(std::count_if(
          matches.begin() + static_cast<std::ptrdiff_t>(skip), matches.end(), [&](DocId d) { return live.is_live(d); }));
      auto counted = start();
      EXPECT_EQ(counted->count_remaining(), matches.size() - skip) << kids.size() << " lists, skip " << skip;
      EXPECT_EQ(counted->doc(), kNoMoreDocs);
      EXPECT_EQ(start()->count_live(live), live_left) << kids.size() << " lists, skip " << skip;
      std::vector<DocId> all = {7}, kept = {7};  // appended to, with the base added
      start()->collect_remaining(all, 100000);
      start()->collect_live(kept, 100000, live);
      ASSERT_EQ(all.size(), matches.size() - skip + 1);
      ASSERT_EQ(kept.size(), live_left + 1);
      for (size_t i = skip, k = 1; i < matches.size(); ++i) {
        ASSERT_EQ(all[i - skip + 1], matches[i] + 100000);
        if (live.is_live(matches[i])) {
          ASSERT_EQ(kept[k++], matches[i] + 100000);
        }
      }
    }
  }
}

// Phrases over positional postings: "x y", the repeated "x x" and "x x x".
TEST(PhraseCursorTest, MatchesConsecutivePositionsOnly) {
  std::mt19937 rng(3);
  // Doc d holds a random token sequence over {x, y, z} and a filler (3)
  // that no phrase names: with it, a token is missing from about half the
  // docs, so a two-phase cursor's tokens often overshoot one another.
  std::vector<std::vector<int>> texts(kDocs);
  for (auto& t : texts) {
    size_t n = rng() % 12;
    for (size_t i = 0; i < n; ++i) t.push_back(rng() % 3 == 0 ? static_cast<int>(rng() % 3) : 3);
  }
  MemoryPostings postings;
  for (int token = 0; token < 3; ++token) {
    std::vector<DocId> docs;
    std::vector<std::vector<uint32_t>> positions;
    for (DocId d = 0; d < kDocs; ++d) {
      std::vector<uint32_t> p;
      for (uint32_t i = 0; i < texts[d].size(); ++i)
        if (texts[d][i] == token) p.push_back(i);
      if (!p.empty()) {
        docs.push_back(d);
        positions.push_back(p);
      }
    }
    postings.add(docs, positions);
  }
  auto expect = [&](const std::vector<int>& phrase) {
    std::vector<DocId> out;
    for (DocId d = 0; d < kDocs; ++d) {
      const auto& t = texts[d];
      for (size_t i = 0; i + phrase.size() <= t.size(); ++i)
        if (std::equal(phrase.begin(), phrase.end(), t.begin() + static_cast<std::ptrdiff_t>(i))) {
          out.push_back(d);
          break;
        }
    }
    return out;
  };
  auto phrase_cursor = [&](const std::vector<int>& phrase, bool two_phase = false) {
    std::vector<int> unique;
    std::vector<uint32_t> slots;
    for (int tok : phrase) {
      auto it = std::find(unique.begin(), unique.end(), tok);
      slots.push_back(static_cast<uint32_t>(it - unique.begin()));
      if (it == unique.end()) unique.push_back(tok);
    }
    std::vector<PostingsCursor> approx;
    for (int tok : unique) approx.push_back(postings.cursor(static_cast<uint32_t>(tok)));
    return PhraseCursor(std::move(approx), slots, {}, nullptr, Field::kTitle, nullptr, "p", two_phase);
  };
  std::mt19937 steps(5);
  for (const auto& phrase : std::vector<std::vector<int>>{{0, 1}, {1, 0}, {0, 0}, {0, 0, 0}, {2, 1, 2}, {0, 1, 0, 1}}) {
    auto c = phrase_cursor(phrase);
    std::vector<DocId> expected = expect(phrase);
    ASSERT_FALSE(expected.empty());
    check_steps(c, expected, steps);
    auto probed = phrase_cursor(phrase);
    check_probes(probed, expected, steps);
    auto two_phase = phrase_cursor(phrase, true);
    check_two_phase_steps(two_phase, expected, steps);
    // Excluding a phrase from every doc probes it; collecting walks it.
    std::vector<DocId> all(kDocs), complement, collected;
    for (DocId d = 0; d < kDocs; ++d) all[d] = d;
    std::set_difference(all.begin(), all.end(), expected.begin(), expected.end(), std::back_inserter(complement));
    AndNotCursor walked(std::make_unique<AllDocsCursor>(kDocs), std::make_unique<PhraseCursor>(phrase_cursor(phrase)));
    walked.collect_remaining(collected, 10);
    for (auto& d : collected) d -= 10;
    EXPECT_EQ(collected, complement);
  }
}

}  // namespace
}  // namespace fts
