// What the planner builds, read from explain(): an excluded phrase is built
// two-phase, positions read only at the docs it is probed at (beside a
// positive clause) or at its candidates as a complement passes them. Each
// plan's count is checked against counting the parts apart. And how a
// disjunction with an exact count is ranked and counted per segment, and a
// conjunction of terms in batches, also where the count may stop early.
#include <gtest/gtest.h>

#include <bit>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "analyzer/analyzer.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/live_docs_cursor.h"
#include "query/parser.h"
#include "query/planner.h"
#include "query/searcher.h"
#include "query/window_scorer.h"
#include "support/test_support.h"

namespace fts {
namespace {

class PlannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    IndexWriter writer(dir_.str());
    for (int i = 0; i < 600; ++i) {
      Document d;
      d.title = "doc " + std::to_string(i);
      d.abstract = std::string(i % 2 ? "small wild cat" : "wild small cat") + (i % 7 == 0 ? " dog" : "");
      writer.add(d);
    }
    writer.commit();
    searcher_ = std::make_unique<Searcher>(IndexReader::open(dir_.str()), SearcherOptions{0, 0});
  }
  std::string explain(const std::string& q) { return searcher_->explain(parse_query(q, analyzer_).get()); }
  uint64_t count(const std::string& q) { return searcher_->count(parse_query(q, analyzer_).get()); }

  test::TempDir dir_;
  Analyzer analyzer_;
  std::unique_ptr<Searcher> searcher_;
};

TEST_F(PlannerTest, ProbedExclusionIsTwoPhase) {
  const std::string plan = explain("cat -\"small wild\"");
  EXPECT_NE(plan.find("phrase(two-phase) \"small wild\""), std::string::npos) << plan;
  EXPECT_EQ(count("cat -\"small wild\""), count("cat") - count("\"small wild\""));
  SearchResponse top = searcher_->search(parse_query("cat -\"small wild\"", analyzer_).get(), {});
  EXPECT_EQ(top.total_hits, 300u);
}

// Several exclusions are probed through their union: each phrase among
// them two-phase, the union asking every one at a candidate.
TEST_F(PlannerTest, ProbedExclusionsInAUnionAreTwoPhase) {
  const std::string q = "cat -\"small wild\" -dog";
  const std::string plan = explain(q);
  EXPECT_NE(plan.find("phrase(two-phase) \"small wild\""), std::string::npos) << plan;
  EXPECT_EQ(count(q), count("\"wild small\"") - count("\"wild small\" dog"));
  EXPECT_EQ(count("cat -dog -\"small wild\""), count(q));
  EXPECT_EQ(searcher_->search(parse_query(q, analyzer_).get(), {}).total_hits, count(q));
}

// A complement iterates its exclusions' candidates, confirming each it
// reaches: every odd doc holds "small wild", every even one both tokens in
// the other order (a candidate, no match). The first hits by doc id come
// without confirming candidates beyond them (the exact phrase searched
// the segment for its first match on construction).
TEST_F(PlannerTest, IteratedExclusionsAreTwoPhaseAndConfirmed) {
  for (const std::string q : {"-\"small wild\"", "-\"small wild\" -dog"}) {
    const std::string plan = explain(q);
    EXPECT_NE(plan.find("phrase(two-phase) \"small wild\""), std::string::npos) << q << "\n" << plan;
  }
  EXPECT_EQ(count("-\"small wild\""), 300u);
  EXPECT_EQ(count("-\"small wild\" -dog"), 600u - count("\"small wild\" OR dog"));
  SearchRequest first;
  first.order = SearchRequest::Order::kDocId;
  first.limit = 4;
  for (uint64_t threshold : {kExactHitCount, uint64_t{4}}) {
    first.total_hits_threshold = threshold;
    SearchResponse r = searcher_->search(parse_query("-\"small wild\"", analyzer_).get(), first);
    ASSERT_EQ(r.hits.size(), 4u);
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(r.hits[i].doc, 2 * i) << i;
    if (threshold == kExactHitCount) {
      EXPECT_EQ(r.total_hits, 300u);
    }
  }
}

// An AND with a term absent from the segment is empty before a costlier
// child is built, wherever the term stands: the OR beside it is never
// looked up in the filter cache, only the query itself is. Where the term
// is present, the OR is looked up too.
TEST_F(PlannerTest, AnAbsentTermEmptiesAConjunctionBeforeItsOtherChildren) {
  Searcher cached(IndexReader::open(dir_.str()), SearcherOptions{1u << 20, 0});
  auto lookups_of = [&](const std::string& q, uint64_t expected_count) {
    const CacheStats before = cached.cache_stats();
    EXPECT_EQ(cached.count(parse_query(q, analyzer_).get()), expected_count) << q;
    const CacheStats after = cached.cache_stats();
    return after.hits + after.misses - before.hits - before.misses;
  };
  for (const std::string q : {"(cat OR wild) zebra", "zebra (cat OR wild)", "((cat OR wild) dog) zebra"}) {
    EXPECT_EQ(lookups_of(q, 0), 1u) << q;
  }
  EXPECT_EQ(lookups_of("(cat OR wild) dog", 86), 2u);
}

// A disjunction ranked with an exact count scores every match where
// counting apart would read the clauses well beyond their matches (as
// often again): a phrase (positions) or a conjunction of common lists
// among its clauses. A common term beside a rare one is pruned, and so is
// one beside a conjunction led by a rare list (dog 14: one doc, found by
// reading a block of dog's).
TEST_F(PlannerTest, ClausesCountedAsDearlyAsScoredAreAllScored) {
  auto clauses_scored_all = [&](const std::string& q) {
    auto query = parse_query(q, analyzer_);
    PreparedQuery prepared(*query, searcher_->index(), true);
    EXPECT_GT(disjunction_width(prepared), 1u) << q;
    const auto& segment = searcher_->index().segments().at(0);
    return scoring_all_pays(plan_segment_clauses(prepared, *segment.reader, PlanOptions{}).clauses);
  };
  EXPECT_FALSE(clauses_scored_all("cat OR 17"));
  EXPECT_TRUE(clauses_scored_all("cat OR \"small wild\" OR 17"));
  EXPECT_TRUE(clauses_scored_all("17 OR (cat wild small)"));
  EXPECT_FALSE(clauses_scored_all("cat OR (dog 14)"));
  for (const std::string q : {"cat OR 17", "cat OR \"small wild\" OR 17", "17 OR (cat wild small)", "cat OR (dog 14)"}) {
    EXPECT_EQ(searcher_->search(parse_query(q, analyzer_).get(), {}).total_hits, count(q)) << q;
  }
}

// A disjunction whose clauses but one hold nothing in a segment (no doc
// has "cat small") is counted by that clause's doc freq, or, with deleted
// docs, by counting its live docs; with every clause empty, 0.
TEST_F(PlannerTest, ADisjunctionWithOneClauseLeftCountsIt) {
  const std::vector<std::pair<std::string, uint64_t>> queries = {
      {"dog OR \"cat small\"", 86}, {"\"cat small\" OR \"cat wild\"", 0}, {"(dog OR \"cat small\") -14", 85}};
  for (const auto& [q, hits] : queries) {
    EXPECT_EQ(searcher_->search(parse_query(q, analyzer_).get(), {}).total_hits, hits) << q;
  }
  {
    IndexWriter writer(dir_.str());
    writer.delete_doc(7);
    writer.commit();
  }
  searcher_ = std::make_unique<Searcher>(IndexReader::open(dir_.str()), SearcherOptions{0, 0});
  for (const auto& [q, hits] : queries) {
    EXPECT_EQ(searcher_->search(parse_query(q, analyzer_).get(), {}).total_hits, hits ? hits - 1 : 0) << q;
  }
}

// A phrase ranked alone without an exact count learns the k-th best score
// and passes the stretches that its tokens' block bounds rule out without
// reading their positions: told that nothing up to its own bound competes,
// it has no match left; told 0, it keeps every match ("small wild": the
// odd docs).
TEST_F(PlannerTest, APhraseToldTheKthScorePassesWhatCannotCompete) {
  auto query = parse_query("\"small wild\"", analyzer_);
  PreparedQuery prepared(*query, searcher_->index(), true);
  const SegmentReader& segment = *searcher_->index().segments().at(0).reader;
  auto all = plan_segment(prepared, segment, PlanOptions{});
  ASSERT_EQ(all->doc(), 1u);
  EXPECT_TRUE(all->set_min_competitive_score(0.0f));
  uint64_t matches = 1;
  while (all->next() != kNoMoreDocs) ++matches;
  EXPECT_EQ(matches, 300u);
  auto none = plan_segment(prepared, segment, PlanOptions{});
  EXPECT_TRUE(none->set_min_competitive_score(none->max_score()));
  EXPECT_EQ(none->next(), kNoMoreDocs);
}

// Ranked with a count allowed to stop early, a conjunction of terms whose
// lead holds fewer than 2^19 docs in a segment is scored whole, a batch
// at a time, which costs less than pruning a doc at a time: its count comes
// exact, and its hits are the exact ranking's.
TEST_F(PlannerTest, TermConjunctionsAreRankedWholeUnderAThreshold) {
  SearchRequest fast;
  fast.limit = 5;
  fast.total_hits_threshold = 10;
  SearchRequest exact = fast;
  exact.total_hits_threshold = kExactHitCount;
  for (const std::string q : {"cat wild", "small AND cat AND wild", "cat dog", "doc 17 cat"}) {
    auto query = parse_query(q, analyzer_);
    const SearchResponse got = searcher_->search(query.get(), fast);
    const SearchResponse want = searcher_->search(query.get(), exact);
    EXPECT_TRUE(got.total_hits_exact) << q;
    EXPECT_EQ(got.total_hits, count(q)) << q;
    ASSERT_EQ(got.hits.size(), want.hits.size()) << q;
    for (size_t i = 0; i < got.hits.size(); ++i) {
      EXPECT_EQ(got.hits[i].doc, want.hits[i].doc) << q << " rank " << i;
      EXPECT_EQ(got.hits[i].score, want.hits[i].score) << q << " rank " << i;
    }
  }
}

// Ranking every match takes a conjunction of terms in batches
// (DocCursor::take_scored): the same docs with the same scores, to the bit,
// as next() and score() give them, whatever the batch's size, the order the
// terms are written in or the docs deleted. Freqs of 1 to 4 and lengths of
// 3 to 40 words, over three segments with every seventh doc deleted.
TEST(BatchedRanking, TakeScoredEqualsNextAndScoreBitForBit) {
  const std::vector<std::string> words = {"apple", "river", "stone", "cloud", "forest"};
  const std::vector<double> chance = {0.6, 0.5, 0.7, 0.3, 0.05};
  std::mt19937 rng(5);
  test::TempDir dir;
  IndexWriterOptions options;
  options.merge = false;
  options.max_segment_docs = 1500;
  {
    IndexWriter writer(dir.str(), options);
    for (int i = 0; i < 4000; ++i) {
      Document d;
      d.title = "doc " + std::to_string(i);
      for (size_t w = 0; w < words.size(); ++w) {
        if (std::bernoulli_distribution(chance[w])(rng))
          for (uint32_t k = 1 + rng() % 4; k > 0; --k) d.abstract += words[w] + " ";
      }
      for (uint32_t k = rng() % 30; k > 0; --k) d.abstract += "filler" + std::to_string(rng() % 50) + " ";
      writer.add(d);
    }
    writer.commit();
    for (DocId id = 0; id < 4000; id += 7) writer.delete_doc(id);
    writer.commit();
  }
  auto index = IndexReader::open(dir.str());
  ASSERT_EQ(index->segments().size(), 3u);
  Analyzer analyzer;
  struct Hit {
    DocId doc;
    uint32_t score_bits;
    bool operator==(const Hit&) const = default;
  };
  size_t compared = 0;
  for (const std::string q : {"apple river", "river apple", "apple river stone", "stone cloud apple river",
                              "forest apple", "cloud AND stone AND river AND apple AND forest"}) {
    auto query = parse_query(q, analyzer);
    PreparedQuery prepared(*query, *index, true);
    for (const auto& segment : index->segments()) {
      auto plan = [&] {
        return LiveDocsCursor::filter(plan_segment(prepared, *segment.reader, PlanOptions{}), segment.live.get());
      };
      std::vector<Hit> expected;
      auto one_by_one = plan();
      for (DocId d = one_by_one->doc(); d != kNoMoreDocs; d = one_by_one->next())
        expected.push_back({d, std::bit_cast<uint32_t>(one_by_one->score())});
      compared += expected.size();
      for (const size_t batch : {size_t{1}, size_t{7}, size_t{128}, size_t{300}}) {
        auto batched = plan();
        const DocId first = batched->doc();
        std::vector<DocId> docs(batch);
        std::vector<float> scores(batch);
        EXPECT_EQ(batched->take_scored(docs.data(), scores.data(), 0), 0u);
        EXPECT_EQ(batched->doc(), first);
        std::vector<Hit> taken;
        while (const size_t n = batched->take_scored(docs.data(), scores.data(), batch)) {
          ASSERT_LE(n, batch);
          for (size_t i = 0; i < n; ++i) taken.push_back({docs[i], std::bit_cast<uint32_t>(scores[i])});
        }
        EXPECT_TRUE(taken == expected) << q << ", batch " << batch << ": " << taken.size() << " against "
                                       << expected.size();
      }
    }
  }
  EXPECT_GT(compared, 1000u);
}

}  // namespace
}  // namespace fts
