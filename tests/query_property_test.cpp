// The Searcher against the brute-force evaluator (tests/brute_force.h) on
// generated corpora: every operator, field, phrase (repeated tokens too),
// nesting, pure negation and absent term; one and many segments; with and
// without the filter cache; match sets, counts, top-k ids and scores. Then
// every query of the shared query sets over the jargon corpus.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"
#include "brute_force.h"
#include "query_check.h"
#include "dump/dump_reader.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/parser.h"
#include "query/planner.h"
#include "query/searcher.h"
#include "query/window_scorer.h"
#include "support/test_support.h"

namespace fts {
namespace {

using test::BruteForce;

using test::check_query;
using test::Corpus;
using test::kWords;
using test::QueryGenerator;
using test::random_query_text;

void build_index(const std::string& dir, const std::vector<Document>& docs, IndexWriterOptions options) {
  IndexWriter writer(dir, options);
  for (const auto& d : docs) writer.add(d);
  writer.commit();
}

// An index of docs in dir: one merged segment, or segments of at most
// max_segment_docs (0: merged).
std::shared_ptr<const IndexReader> index_of(const std::string& dir, const std::vector<Document>& docs,
                                            uint32_t max_segment_docs) {
  IndexWriterOptions options;
  options.pair_words = test::pair_words();
  if (max_segment_docs) {
    options.merge = false;
    options.max_segment_docs = max_segment_docs;
  }
  build_index(dir, docs, options);
  return IndexReader::open(dir);
}

// fn(index, searcher, max_segment_docs) over docs indexed as one merged
// segment, then as segments of segment_docs each.
template <class Fn>
void over_one_and_many_segments(const std::vector<Document>& docs, uint32_t segment_docs, Fn&& fn) {
  for (const uint32_t max_segment_docs : {0u, segment_docs}) {
    test::TempDir dir;
    auto index = index_of(dir.str(), docs, max_segment_docs);
    Searcher searcher(index, SearcherOptions{0, 0});
    fn(*index, searcher, max_segment_docs);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// docs indexed in dir as segments of segment_docs each (not merged), then
// the docs deleted(id) picks deleted in one commit: the index, and the
// brute-force evaluator of its live docs.
struct IndexWithDeletes {
  std::shared_ptr<const IndexReader> index;
  BruteForce brute;
};
template <class Deleted>
IndexWithDeletes index_with_deletes(const std::string& dir, const std::vector<Document>& docs, uint32_t segment_docs,
                                    Deleted&& deleted) {
  Analyzer analyzer;
  std::vector<test::BruteDoc> brute_docs;
  for (const auto& d : docs) brute_docs.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
  IndexWriterOptions options;
  options.merge = false;
  options.max_segment_docs = segment_docs;
  options.pair_words = test::pair_words();
  build_index(dir, docs, options);
  {
    IndexWriter writer(dir, options);
    for (DocId id = 0; id < docs.size(); ++id) {
      if (!deleted(id)) continue;
      writer.delete_doc(id);
      brute_docs[id].live = false;
    }
    writer.commit();
  }
  return {IndexReader::open(dir), BruteForce(std::move(brute_docs))};
}

// The top 10 with a count that may stop at any hit: pruned from the first.
SearchResponse pruned_top10(const Searcher& searcher, const QueryNode* query) {
  SearchRequest request;
  request.limit = 10;
  request.total_hits_threshold = 0;
  return searcher.search(query, request);
}

struct Config {
  size_t docs;
  uint32_t seed;
  uint32_t max_segment_docs;  // 0: one merged segment
  bool pairs;                 // test::pair_words() paired, or no pairs
};
void PrintTo(const Config& c, std::ostream* os) {
  *os << c.docs << " docs, seed " << c.seed << ", segments of " << c.max_segment_docs << (c.pairs ? ", pairs" : "");
}

class QueryPropertyTest : public ::testing::TestWithParam<Config> {};

TEST_P(QueryPropertyTest, SearcherAgreesWithBruteForce) {
  const Config config = GetParam();
  Corpus corpus(config.seed);
  std::vector<Document> docs = corpus.documents(config.docs);
  test::TempDir dir;
  IndexWriterOptions options;
  options.ram_mb = 16;
  options.pair_words = config.pairs ? test::pair_words() : std::vector<std::string>{};
  if (config.max_segment_docs) {
    options.merge = false;
    options.max_segment_docs = config.max_segment_docs;
  }
  build_index(dir.str(), docs, options);
  auto index = IndexReader::open(dir.str());
  if (config.max_segment_docs) {
    ASSERT_GT(index->segments().size(), 2u);
  }

  Analyzer analyzer;
  std::vector<test::BruteDoc> brute_docs;
  for (const auto& d : docs) brute_docs.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
  BruteForce brute(brute_docs);
  std::vector<std::string> terms;
  for (const auto& w : kWords)
    for (auto& t : analyzer.analyze(w)) terms.push_back(t);

  Searcher uncached(index, SearcherOptions{0, 0});
  Searcher cached(index, SearcherOptions{1 << 20, 1});  // caches every subquery seen twice

  QueryGenerator gen(config.seed * 7 + 1, brute_docs, terms);
  std::mt19937 rng(config.seed);
  for (int i = 0; i < 400; ++i) {
    auto query = gen.tree(1 + i % 4);
    ASSERT_TRUE(check_query(uncached, brute, query.get(), rng)) << "query #" << i;
    // Segments searched on three threads at once, each pruning and counting
    // on its own.
    if (config.max_segment_docs) {
      ASSERT_TRUE(check_query(uncached, brute, query.get(), rng, 3)) << "query #" << i;
    }
    // Three times: plain, then materialised into the cache, then served by it.
    for (int rep = 0; rep < 3; ++rep) ASSERT_TRUE(check_query(cached, brute, query.get(), rng)) << "query #" << i;
  }
  EXPECT_GT(cached.cache_stats().hits, 0u);

  for (int i = 0; i < 300; ++i) {
    std::string text = random_query_text(rng, corpus, 3);
    std::unique_ptr<QueryNode> query;
    try {
      query = parse_query(text, analyzer);
    } catch (const QuerySyntaxError&) {
      continue;
    }
    ASSERT_TRUE(check_query(uncached, brute, query.get(), rng)) << text;
    ASSERT_TRUE(check_query(cached, brute, query.get(), rng, config.max_segment_docs ? 3 : 1)) << text;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpora, QueryPropertyTest,
                         ::testing::Values(Config{300, 1, 0, true}, Config{1000, 2, 0, false},
                                           Config{3000, 3, 0, true}, Config{1200, 4, 97, true},
                                           Config{2500, 5, 300, false}, Config{2000, 6, 150, true}),
                         [](const ::testing::TestParamInfo<Config>& info) { return "seed" + std::to_string(info.param.seed); });

TEST(QueryPropertyTest, NullQueryMatchesNothing) {
  Corpus corpus(9);
  test::TempDir dir;
  build_index(dir.str(), corpus.documents(50), {});
  Searcher searcher(IndexReader::open(dir.str()));
  std::vector<DocId> got{1, 2};
  searcher.matching_docs(nullptr, got);
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(searcher.count(nullptr), 0u);
  EXPECT_EQ(searcher.search(nullptr, {}).total_hits, 0u);
}

// A positive that plans as every doc, such as (a OR NOT a), makes AND-NOT
// iterate its exclusions rather than probe them, so an excluded phrase or
// conjunction must then be exact, not two-phase (it once counted the
// phrase's candidates as excluded).
TEST(QueryPropertyTest, ExclusionsFromEveryDocAreExact) {
  Corpus corpus(11);
  const std::vector<Document> docs = corpus.documents(800);
  test::TempDir dir;
  build_index(dir.str(), docs, {});
  auto index = IndexReader::open(dir.str());
  Searcher uncached(index, SearcherOptions{0, 0});
  Searcher cached(index, SearcherOptions{1 << 20, 1});
  Analyzer analyzer;
  BruteForce brute = BruteForce::analyze(docs, analyzer);
  std::mt19937 rng(5);
  for (int i = 0; i < 60; ++i) {
    const std::string a = corpus.word(), b = corpus.word(), c = corpus.word(), d = corpus.word();
    for (const std::string& text :
         {"(" + a + " OR NOT " + a + ") NOT \"" + b + " " + c + "\"",
          "(" + a + " OR NOT " + a + ") NOT (" + b + " AND (" + c + " OR \"" + d + " " + b + "\"))",
          "(" + a + " OR NOT " + b + ") -(" + c + " \"" + d + " " + a + "\")",
          a + " (" + b + " OR \"" + c + " " + d + "\" OR (" + d + " AND " + c + ")) -\"" + b + " " + a + "\"",
          // An OR with a negation that plans as every doc (zzqx matches
          // nothing): its phrase ends up excluded from every doc.
          a + " AND (\"" + b + " " + c + "\" OR NOT (" + d + " OR NOT zzqxabsent))"}) {
      auto query = parse_query(text, analyzer);
      ASSERT_TRUE(check_query(uncached, brute, query.get(), rng)) << text;
      ASSERT_TRUE(check_query(cached, brute, query.get(), rng)) << text;
    }
  }
}

// Counting and matching drop the clauses a sibling implies (x AND (x OR y)
// as x: rewrite.h); ranking keeps them, as they add to the score. Both
// against brute force, with random clauses for x and y, at the root and
// below another group, over one segment, many, and many with deleted docs.
TEST(QueryPropertyTest, ClausesImpliedByASiblingMatchAndScoreAsWritten) {
  Corpus corpus(12);
  const std::vector<Document> docs = corpus.documents(1500);
  Analyzer analyzer;
  std::vector<test::BruteDoc> brute_docs;
  for (const auto& d : docs) brute_docs.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
  std::vector<std::string> terms;
  for (const auto& w : kWords)
    for (auto& t : analyzer.analyze(w)) terms.push_back(t);
  using Kind = QueryNode::Kind;
  auto group = [](Kind kind, std::vector<std::unique_ptr<QueryNode>> children) {
    auto node = std::make_unique<QueryNode>();
    node->kind = kind;
    node->children = std::move(children);
    return node;
  };
  auto check = [&](std::shared_ptr<const IndexReader> index, const BruteForce& brute, uint32_t seed) {
    Searcher searcher(std::move(index), SearcherOptions{0, 0});
    QueryGenerator gen(seed, brute_docs, terms);
    std::mt19937 rng(seed);
    for (int i = 0; i < 60; ++i) {
      const auto x = gen.tree(i % 3), y = gen.tree(1), z = gen.tree(1);
      const Kind outer = i % 2 ? Kind::kAnd : Kind::kOr;
      const Kind inner = outer == Kind::kAnd ? Kind::kOr : Kind::kAnd;
      std::vector<std::unique_ptr<QueryNode>> holding;  // x beside y, in either order
      holding.push_back(y->clone());
      holding.insert(holding.begin() + static_cast<std::ptrdiff_t>(rng() % 2), x->clone());
      std::vector<std::unique_ptr<QueryNode>> children;
      children.push_back(x->clone());
      children.push_back(group(inner, std::move(holding)));
      if (rng() % 2) children.push_back(z->clone());
      std::shuffle(children.begin(), children.end(), rng);
      auto query = group(outer, std::move(children));
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << "seed " << seed;
      std::vector<std::unique_ptr<QueryNode>> around;
      around.push_back(std::move(query));
      around.push_back(gen.tree(1));
      auto nested = group(rng() % 2 ? Kind::kAnd : Kind::kOr, std::move(around));
      ASSERT_TRUE(check_query(searcher, brute, nested.get(), rng)) << "seed " << seed;
    }
  };
  const BruteForce brute(brute_docs);
  for (const uint32_t max_segment_docs : {0u, 200u}) {
    test::TempDir dir;
    check(index_of(dir.str(), docs, max_segment_docs), brute, 31 + max_segment_docs);
    if (::testing::Test::HasFatalFailure()) return;
  }
  test::TempDir dir;
  std::mt19937 pick(3);
  auto with_deletes = index_with_deletes(dir.str(), docs, 200, [&](DocId) { return pick() % 8 == 0; });
  check(with_deletes.index, with_deletes.brute, 97);
}

// A disjunction with an exact count is ranked per segment either by scoring
// every match a window at a time, or by pruning beside a count
// (window_scorer.h): both ways, over windows, segments, exclusions and
// clauses of every kind, against brute force.
TEST(QueryPropertyTest, DisjunctionsRankedEitherWayMatchBruteForce) {
  Corpus corpus(21);
  const std::vector<Document> docs = corpus.documents(6000);
  Analyzer analyzer;
  const BruteForce brute = BruteForce::analyze(docs, analyzer);
  over_one_and_many_segments(docs, 2500,
                             [&](const IndexReader& index, const Searcher& searcher, uint32_t max_segment_docs) {
    std::mt19937 rng(max_segment_docs + 1);
    size_t scored_all = 0, pruned = 0;
    for (int i = 0; i < 120; ++i) {
      // Common words beside rarer ones: the common ones hold most postings
      // where they come with a rare one, which makes pruning the choice.
      std::string text = rng() % 2 ? std::string(kWords[rng() % 6]) : corpus.word();
      for (int n = 1 + static_cast<int>(rng() % 4); n > 0; --n) {
        switch (rng() % 6) {
          case 0:
            text += " OR \"" + corpus.word() + " " + corpus.word() + "\"";
            break;
          case 1:
            text += " OR (" + corpus.word() + " " + corpus.word() + ")";
            break;
          default:
            text += " OR " + corpus.word();
        }
      }
      if (rng() % 4 == 0) text = "(" + text + ") -" + corpus.word();
      auto query = parse_query(text, analyzer);
      if (!query) continue;
      PreparedQuery prepared(*query, index, true);
      if (disjunction_width(prepared) == 0) continue;  // one clause left after rewriting
      for (const auto& segment : index.segments()) {
        const SegmentClauses planned = plan_segment_clauses(prepared, *segment.reader, PlanOptions{});
        ++(scoring_all_pays(planned.clauses) ? scored_all : pruned);
      }
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text;
      if (max_segment_docs) {
        ASSERT_TRUE(check_query(searcher, brute, query.get(), rng, 2)) << text;
      }
    }
    EXPECT_GT(scored_all, 10u);
    EXPECT_GT(pruned, 10u);
  });
}

// A disjunction of more clauses than pruning takes is scored a window of
// docs at a time (window_scorer.h), with an exact count or under a
// threshold: over one segment and over six with deleted docs, with
// clauses of every kind and exclusions, against brute force.
TEST(QueryPropertyTest, WideDisjunctionsScoredByWindowsMatchBruteForce) {
  Corpus corpus(41);
  const std::vector<Document> docs = corpus.documents(6000);
  Analyzer analyzer;
  for (const bool deletes : {false, true}) {
    std::vector<test::BruteDoc> brute_docs;
    for (const auto& d : docs) brute_docs.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
    test::TempDir dir;
    IndexWriterOptions options;
    if (deletes) {
      options.merge = false;
      options.max_segment_docs = 1000;
    }
    build_index(dir.str(), docs, options);
    std::mt19937 rng(deletes ? 42 : 41);
    if (deletes) {
      IndexWriter writer(dir.str(), options);
      for (DocId id = 0; id < docs.size(); ++id) {
        if (rng() % 9 != 0) continue;
        writer.delete_doc(id);
        brute_docs[id].live = false;
      }
      writer.commit();
    }
    auto index = IndexReader::open(dir.str());
    const BruteForce brute(brute_docs);
    Searcher searcher(index, SearcherOptions{0, 0});
    size_t wide = 0;
    for (int i = 0; i < 40; ++i) {
      std::string text = std::string(test::kWords[rng() % 6]);
      for (int n = static_cast<int>(kMaxPrunedClauses) + 10 + static_cast<int>(rng() % 24); n > 0; --n) {
        switch (rng() % 8) {
          case 0:
            text += " OR \"" + corpus.word() + " " + corpus.word() + "\"";
            break;
          case 1:
            text += " OR (" + corpus.word() + " " + corpus.word() + ")";
            break;
          case 2:
            text += " OR " + std::string(test::kWords[rng() % test::kWords.size()]);
            break;
          default:
            text += " OR " + corpus.word();
        }
      }
      if (rng() % 3 == 0) text = "(" + text + ") -" + corpus.word();
      auto query = parse_query(text, analyzer);
      ASSERT_TRUE(query) << text;
      if (disjunction_width(PreparedQuery(*query, *index, true)) > kMaxPrunedClauses) ++wide;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text;
      if (deletes) {
        ASSERT_TRUE(check_query(searcher, brute, query.get(), rng, 2)) << text;
      }
    }
    EXPECT_GT(wide, 30u);
  }
}

// A ranking whose count may stop early hands the k-th best score down an
// AND (Lucene's setMinCompetitiveScore), and an OR child leaves out the
// children that cannot make a doc competitive alone (what is left out is
// checked in cursor_test's MinCompetitiveScoreLeavesOutWhatCannotCompete).
// Over conjunctions of that shape, with exclusions and negated clauses, the
// top k must stay brute force's and the counts lower bounds of it.
TEST(QueryPropertyTest, ConjunctionsPassOverDocsThatCannotCompete) {
  Corpus corpus(51);
  const std::vector<Document> docs = corpus.documents(6000);
  Analyzer analyzer;
  const BruteForce brute = BruteForce::analyze(docs, analyzer);
  over_one_and_many_segments(docs, 2500,
                             [&](const IndexReader& /*index*/, const Searcher& searcher, uint32_t max_segment_docs) {
    std::mt19937 rng(max_segment_docs + 5);
    size_t passed_over = 0;
    for (int i = 0; i < 60; ++i) {
      const std::string w = kWords[rng() % 8], x = kWords[16 + rng() % 20], y = kWords[16 + rng() % 20],
                        z = kWords[rng() % kWords.size()];
      const std::string texts[] = {w + " (" + w + " OR " + x + " OR " + y + ")",
                                   w + " (" + w + " OR " + x + ") -" + z,
                                   "(" + w + " OR " + x + " OR NOT " + y + ") " + z,
                                   "(" + w + " OR (" + x + " " + y + ")) AND (" + z + " OR " + x + ")"};
      for (const std::string& text : texts) {
        auto query = parse_query(text, analyzer);
        ASSERT_TRUE(query) << text;
        ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text;
        const SearchResponse response = pruned_top10(searcher, query.get());
        const uint64_t matches = searcher.count(query.get());
        EXPECT_LE(response.total_hits, matches) << text;
        if (response.total_hits < matches) ++passed_over;
      }
    }
    EXPECT_GT(passed_over, 20u);
  });
}

// A phrase alone (or minus a term) ranked without an exact count passes
// the stretches where its tokens' block bounds cannot beat the k-th best
// score, reading no positions there: the top hits stay brute force's, and
// the count falls short of the matches. Docs are short in every third run
// of 500 and long elsewhere, so once the best hits are found whole blocks
// of long docs are ruled out.
TEST(QueryPropertyTest, PhrasesPassOverStretchesThatCannotCompete) {
  std::mt19937 rng(53);
  const char* fillers[] = {"blue", "green", "jumps", "over", "lazy", "dog", "quick", "brown"};
  std::vector<Document> docs;
  for (int i = 0; i < 6000; ++i) {
    Document d;
    d.url = "u" + std::to_string(i);
    d.title = fillers[rng() % 8];
    const bool short_doc = (i / 500) % 3 == 0;
    const size_t length = short_doc ? 2 + rng() % 4 : 40 + rng() % 20;
    for (size_t w = 0; w < length; ++w) {
      if (rng() % (short_doc ? 3 : 20) == 0) d.abstract += "red fox jumps ";
      d.abstract += std::string(fillers[rng() % 8]) + " ";
    }
    docs.push_back(d);
  }
  Analyzer analyzer;
  const BruteForce brute = BruteForce::analyze(docs, analyzer);
  over_one_and_many_segments(docs, 2500,
                             [&](const IndexReader& /*index*/, const Searcher& searcher, uint32_t max_segment_docs) {
    for (const std::string text : {"\"red fox\"", "\"red fox jumps\"", "\"red fox\" -quick", "abstract:\"fox jumps\""}) {
      auto query = parse_query(text, analyzer);
      ASSERT_TRUE(query) << text;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text;
      const SearchResponse response = pruned_top10(searcher, query.get());
      EXPECT_LT(response.total_hits, searcher.count(query.get())) << text << ", segments of " << max_segment_docs;
      EXPECT_FALSE(response.total_hits_exact) << text;
    }
  });
}

// A term alone over segments with deleted docs: the pruned ranking counts
// the blocks it skips against the live docs as it passes them. Common
// words hold hundreds of docs per segment, so most of their blocks are
// skipped with a small k; each count, page and score must still be brute
// force's over the live docs.
TEST(QueryPropertyTest, TermsOverDeletedDocsCountWhatPruningSkips) {
  Corpus corpus(31);
  const std::vector<Document> docs = corpus.documents(6000);
  Analyzer analyzer;
  test::TempDir dir;
  std::mt19937 rng(31);
  // Every segment loses docs, one of them none (its count is free).
  auto [index, brute] =
      index_with_deletes(dir.str(), docs, 1000, [&](DocId id) { return id >= 1000 && rng() % 7 == 0; });
  ASSERT_EQ(index->segments().size(), 6u);
  Searcher searcher(index, SearcherOptions{0, 0});
  std::vector<std::string> words = test::kWords;
  for (int i = 0; i < 60; ++i) words.push_back(corpus.word());
  for (const std::string& word : words) {
    for (const char* field : {"", "title:", "abstract:"}) {
      auto query = parse_query(field + word, analyzer);
      if (!query || query->kind != QueryNode::Kind::kTerm) continue;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << field << word;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng, 3)) << field << word;
    }
  }
}

// A term minus exclusions, ranked with an exact count over segments with
// deleted docs: where the term holds at most kTermScoredWholeUpTo docs of
// a segment every match is scored and counted in one pass, else the
// pruned ranking goes beside a count. Segments of 3,000 docs hold common
// words beyond that and rare ones below it: both ways, against brute force.
TEST(QueryPropertyTest, TermsMinusExclusionsRankedInOnePassOrBesideACount) {
  Corpus corpus(41);
  const std::vector<Document> docs = corpus.documents(6000);
  Analyzer analyzer;
  test::TempDir dir;
  std::mt19937 rng(41);
  auto [index, brute] = index_with_deletes(dir.str(), docs, 3000, [&](DocId) { return rng() % 9 == 0; });
  ASSERT_EQ(index->segments().size(), 2u);
  Searcher searcher(index, SearcherOptions{0, 0});
  std::vector<std::string> words = kWords;
  for (int i = 0; i < 30; ++i) words.push_back(corpus.word());
  size_t beside_a_count = 0, in_one_pass = 0;
  for (const std::string& word : words) {
    const std::vector<std::string> tokens = analyzer.analyze(word);
    if (tokens.size() != 1) continue;
    uint32_t most = 0;  // the term's docs in its commonest segment
    for (const auto& segment : index->segments()) {
      if (auto info = segment.reader->lookup(Field::kAny, tokens[0])) most = std::max(most, info->doc_freq);
    }
    if (most == 0) continue;
    ++(most > kTermScoredWholeUpTo ? beside_a_count : in_one_pass);
    const std::string a = words[rng() % words.size()], b = words[rng() % words.size()];
    for (const std::string& text : {word + " -" + a, word + " NOT (" + a + " OR " + b + ")",
                                    word + " -\"" + a + " " + b + "\""}) {
      auto query = parse_query(text, analyzer);
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng, 3)) << text;
    }
  }
  EXPECT_GT(beside_a_count, 0u);
  EXPECT_GT(in_one_pass, 0u);
}

// An unqualified phrase whose tokens meet only across the title and the
// abstract: its field parts are looked up at the first candidate, find
// none, and the phrase ends there, alone, beside another clause and
// excluded, in segments with and without a match.
TEST(QueryPropertyTest, PhraseTokensOnlyAcrossFieldsMatchNothing) {
  std::vector<Document> docs;
  for (int i = 0; i < 400; ++i) {
    Document d;
    d.url = "u" + std::to_string(i);
    d.title = i % 3 == 0 ? "alpha" : "delta";
    d.abstract = i % 2 == 0 ? "beta gamma" : "gamma beta delta";
    if (i == 350) d.abstract = "alpha beta";  // the one true match, in the last segment
    docs.push_back(d);
  }
  Analyzer analyzer;
  const BruteForce brute = BruteForce::analyze(docs, analyzer);
  test::TempDir dir;
  IndexWriterOptions options;
  options.merge = false;
  options.max_segment_docs = 100;
  build_index(dir.str(), docs, options);
  auto index = IndexReader::open(dir.str());
  Searcher searcher(index, SearcherOptions{0, 0});
  std::mt19937 rng(3);
  for (const char* text : {"\"alpha beta\"", "\"alpha beta\" gamma", "gamma -\"alpha beta\"", "\"delta gamma\"",
                           "\"alpha beta\" OR delta", "\"delta beta\""}) {
    auto query = parse_query(text, analyzer);
    ASSERT_TRUE(query) << text;
    ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text;
  }
  EXPECT_EQ(searcher.count(parse_query("\"alpha beta\"", analyzer).get()), 1u);
}

// An unqualified phrase found in the title of some docs, the abstract of
// others, both of a few, with its tokens split across the fields in more:
// once past its first candidate it walks the two fields' postings, not the
// kAny ones. Alone, in an OR (which asks its children to go two-phase only
// after they found their first match), beside a required clause, excluded
// (probed), ranked (a doc holding it in both fields scores both); one
// segment and many.
TEST(QueryPropertyTest, PhraseInEitherFieldMatchesWhereverItOccurs) {
  std::mt19937 rng(11);
  const char* fillers[] = {"gamma", "delta", "beta gamma", "alpha delta", "gamma alpha"};
  std::vector<Document> docs;
  for (int i = 0; i < 900; ++i) {
    Document d;
    d.url = "u" + std::to_string(i);
    d.title = fillers[rng() % 5];
    d.abstract = std::string(fillers[rng() % 5]) + " " + fillers[rng() % 5];
    switch (rng() % 8) {
      case 0: d.title += " alpha beta"; break;
      case 1: d.abstract += " alpha beta delta"; break;
      case 2: d.title = "alpha beta " + d.title, d.abstract += " alpha beta alpha beta"; break;
      case 3: d.title += " alpha", d.abstract = "beta " + d.abstract; break;  // across the fields only
      default: break;
    }
    docs.push_back(d);
  }
  Analyzer analyzer;
  const BruteForce brute = BruteForce::analyze(docs, analyzer);
  over_one_and_many_segments(docs, 128,
                             [&](const IndexReader& /*index*/, const Searcher& searcher, uint32_t max_segment_docs) {
    for (const char* text : {"\"alpha beta\"", "\"alpha beta\" OR delta", "\"alpha beta\" OR \"beta delta\"",
                             "gamma \"alpha beta\"", "gamma -\"alpha beta\"", "\"gamma alpha beta\"",
                             "(\"alpha beta\" OR \"delta gamma\") -\"beta gamma\""}) {
      auto query = parse_query(text, analyzer);
      ASSERT_TRUE(query) << text;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text << " segments of " << max_segment_docs;
    }
  });
}

// Phrases of pair words read their pairs' lists (a phrase of two, alone;
// longer ones confirmed on positions where all their pairs occur): the
// same matches, counts and scores as positions give, on one segment, on
// many, on many with deleted docs, and merged from those.
TEST(QueryPropertyTest, PhrasesOfPairWordsMatchAsOnPositions) {
  Corpus corpus(17);
  const std::vector<Document> docs = corpus.documents(2500);
  Analyzer analyzer;
  const char* words[] = {"cat", "dog", "wild", "small", "search", "engine", "ha", "river", "tree", "moon"};
  std::mt19937 rng(17);
  auto phrase = [&] {
    std::string text = "\"";
    const size_t n = 2 + rng() % 3;
    for (size_t i = 0; i < n; ++i) text += std::string(i ? " " : "") + words[rng() % (rng() % 4 ? 7 : 10)];
    text += "\"";
    const unsigned field = rng() % 6;
    return (field == 0 ? "title:" : field == 1 ? "abstract:" : "") + text;
  };
  auto query_text = [&] {
    const std::string p = phrase(), other = words[rng() % 10];
    switch (rng() % 6) {
      case 0: return p + " OR " + other;
      case 1: return other + " " + p;
      case 2: return p + " -" + other;
      case 3: return p + " OR " + phrase();
      case 4: return "NOT " + p;
      default: return p;
    }
  };
  auto check_all = [&](const Searcher& searcher, const BruteForce& brute, const char* what) {
    // A phrase of two pair words is planned as the list of its pair.
    const std::string plan = searcher.explain(parse_query("\"cat dog\"", analyzer).get());
    EXPECT_NE(plan.find("term \"cat dog\""), std::string::npos) << what << "\n" << plan;
    EXPECT_EQ(plan.find("phrase"), std::string::npos) << what << "\n" << plan;
    for (int i = 0; i < 200; ++i) {
      const std::string text = query_text();
      auto query = parse_query(text, analyzer);
      ASSERT_TRUE(query) << text;
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << text << " (" << what << ")";
    }
  };
  const BruteForce brute = BruteForce::analyze(docs, analyzer);
  over_one_and_many_segments(docs, 200, [&](const IndexReader&, const Searcher& searcher, uint32_t max_segment_docs) {
    check_all(searcher, brute, max_segment_docs ? "many segments" : "one segment");
  });
  if (HasFatalFailure()) return;
  test::TempDir dir;
  IndexWithDeletes deleted = index_with_deletes(dir.str(), docs, 200, [](DocId id) { return id % 7 == 3; });  // as below
  check_all(Searcher(deleted.index, SearcherOptions{0, 0}), deleted.brute, "many segments, deleted docs");
  if (HasFatalFailure()) return;
  {
    IndexWriter writer(dir.str());
    writer.force_merge(1);
    writer.commit();
  }
  auto merged = IndexReader::open(dir.str());
  ASSERT_EQ(merged->segments().size(), 1u);
  // Purged by the merge, the deleted docs are out of the statistics too.
  std::vector<test::BruteDoc> purged;
  for (const auto& d : docs) purged.push_back({analyzer.analyze(d.title), analyzer.analyze(d.abstract)});
  for (DocId id = 3; id < purged.size(); id += 7) purged[id].live = purged[id].counted = false;
  check_all(Searcher(merged, SearcherOptions{0, 0}), BruteForce(std::move(purged)), "merged, deleted docs purged");
}

// Every query of the shared sets over the jargon file, against brute force.
TEST(QueryPropertyTest, SharedQueriesOverJargonMatchBruteForce) {
  FTS_REQUIRE_SHARED(dump, "corpus/jargon.xml.gz");
  FTS_REQUIRE_SHARED(queries_dir, "queries");
  std::vector<Document> docs;
  {
    DumpReader reader(dump, {});
    Document d;
    while (reader.next(d)) docs.push_back(d);
  }
  ASSERT_GT(docs.size(), 1000u);
  test::TempDir dir;
  build_index(dir.str(), docs, {});
  auto index = IndexReader::open(dir.str());
  Analyzer analyzer;
  BruteForce brute = BruteForce::analyze(docs, analyzer);
  Searcher searcher(index, SearcherOptions{8 << 20, 1});
  std::mt19937 rng(42);
  size_t checked = 0;
  for (const char* name : {"and", "or", "not", "mixed", "phrase", "field", "edge"}) {
    std::ifstream in(queries_dir + "/" + name + ".txt");
    ASSERT_TRUE(in) << name;
    std::string line;
    while (std::getline(in, line)) {
      auto query = parse_query(line, analyzer);
      ASSERT_TRUE(check_query(searcher, brute, query.get(), rng)) << name << ": " << line;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000u);
}

}  // namespace
}  // namespace fts
