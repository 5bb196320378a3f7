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
#include "dump/dump_reader.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/parser.h"
#include "query/searcher.h"
#include "support/test_support.h"

namespace fts {
namespace {

using test::BruteForce;

const std::vector<std::string> kWords = {
    "cat",  "dog",   "wild",  "small", "search", "engine", "river", "bank",  "money", "stream", "fast", "slow",
    "ha",   "run",   "index", "query", "data",   "tree",   "leaf",  "root",  "node",  "edge",   "graph", "path",
    "the",  "of",    "and",   "to",    "zürich", "1984",   "moon",  "star",  "sun",   "rain",   "snow",  "wind"};

class Corpus {
 public:
  explicit Corpus(uint32_t seed) : rng_(seed) {}

  std::string word() {
    // Zipf-ish: rank r with weight ~ 1 / (r + 1).
    double u = std::uniform_real_distribution<double>(0, std::log(kWords.size() + 1.0))(rng_);
    size_t r = std::min(kWords.size() - 1, static_cast<size_t>(std::exp(u) - 1));
    return kWords[r];
  }

  std::string text(size_t max_words) {
    std::string t;
    size_t n = rng_() % (max_words + 1);
    for (size_t i = 0; i < n; ++i) {
      if (rng_() % 25 == 0) t += "ha ha ";  // repeated tokens for phrases
      t += word();
      t += (rng_() % 9 == 0) ? ", " : " ";
    }
    return t;
  }

  std::vector<Document> documents(size_t n) {
    std::vector<Document> docs(n);
    for (size_t d = 0; d < n; ++d) {
      if (rng_() % 5) docs[d].title = text(5);
      if (rng_() % 7) docs[d].abstract = text(40);
      docs[d].url = "u" + std::to_string(d);
    }
    return docs;
  }

 private:
  std::mt19937 rng_;
};

// Random analyzed query trees over the corpus' terms.
class QueryGenerator {
 public:
  QueryGenerator(uint32_t seed, const std::vector<test::BruteDoc>& docs, std::vector<std::string> terms)
      : rng_(seed), docs_(docs), terms_(std::move(terms)) {}

  std::unique_ptr<QueryNode> tree(int depth) {
    unsigned pick = rng_() % 10;
    if (depth <= 0 || pick < 4) return leaf();
    auto node = std::make_unique<QueryNode>();
    if (pick < 6) {
      node->kind = QueryNode::Kind::kAnd;
    } else if (pick < 8) {
      node->kind = QueryNode::Kind::kOr;
    } else {
      node->kind = QueryNode::Kind::kNot;
      node->children.push_back(tree(depth - 1));
      return node;
    }
    size_t n = 2 + rng_() % 3;
    if (rng_() % 12 == 0) n = 10 + rng_() % 12;  // wide: bitset OR
    for (size_t i = 0; i < n; ++i) node->children.push_back(tree(depth - 1));
    // Repeated clauses, which the planner merges into one weighted clause.
    if (rng_() % 4 == 0) node->children.push_back(node->children[rng_() % n]->clone());
    return node;
  }

  std::unique_ptr<QueryNode> leaf() {
    auto node = std::make_unique<QueryNode>();
    unsigned f = rng_() % 10;
    node->field = f < 6 ? Field::kAny : f < 8 ? Field::kTitle : Field::kAbstract;
    unsigned pick = rng_() % 20;
    if (pick < 12) {
      node->terms = {terms_[rng_() % terms_.size()]};
    } else if (pick < 13) {
      node->terms = {"zzabsent"};
    } else if (pick < 17) {
      node->kind = QueryNode::Kind::kPhrase;
      node->terms = phrase_from_doc();
    } else if (pick < 18) {
      node->kind = QueryNode::Kind::kPhrase;
      std::string t = terms_[rng_() % terms_.size()];
      node->terms = {t, t};
      if (rng_() % 2) node->terms.push_back(t);
    } else {
      node->kind = QueryNode::Kind::kPhrase;
      node->terms = {terms_[rng_() % terms_.size()], terms_[rng_() % terms_.size()]};
      if (rng_() % 5 == 0) node->terms.push_back("zzabsent");
    }
    if (node->terms.size() == 1) node->kind = QueryNode::Kind::kTerm;
    return node;
  }

 private:
  // Consecutive tokens of a random doc, so phrases do occur.
  std::vector<std::string> phrase_from_doc() {
    for (int attempt = 0; attempt < 20; ++attempt) {
      const test::BruteDoc& doc = docs_[rng_() % docs_.size()];
      const auto& tokens = rng_() % 3 ? doc.abstract : doc.title;
      size_t len = 2 + rng_() % 2;
      if (tokens.size() < len) continue;
      size_t start = rng_() % (tokens.size() - len + 1);
      return std::vector<std::string>(tokens.begin() + static_cast<std::ptrdiff_t>(start),
                                      tokens.begin() + static_cast<std::ptrdiff_t>(start + len));
    }
    return {terms_[0], terms_[1]};
  }

  std::mt19937 rng_;
  const std::vector<test::BruteDoc>& docs_;
  std::vector<std::string> terms_;
};

// A random query in the query language, to exercise the parser's shapes.
std::string random_query_text(std::mt19937& rng, Corpus& corpus, int depth) {
  unsigned pick = rng() % 12;
  if (depth <= 0 || pick < 4) return corpus.word();
  switch (pick) {
    case 4:
      return "\"" + corpus.word() + " " + corpus.word() + "\"";
    case 5:
      return (rng() % 2 ? "title:" : "abstract:") + corpus.word();
    case 6:
      return "(" + random_query_text(rng, corpus, depth - 1) + " OR " + random_query_text(rng, corpus, depth - 1) + ")";
    case 7:
      return random_query_text(rng, corpus, depth - 1) + " " + random_query_text(rng, corpus, depth - 1);
    case 8:
      return "-" + corpus.word();
    case 9:
      return "NOT " + random_query_text(rng, corpus, depth - 1);
    case 10:
      return random_query_text(rng, corpus, depth - 1) + " OR -" + corpus.word();
    default:
      return random_query_text(rng, corpus, depth - 1) + " AND " + random_query_text(rng, corpus, depth - 1);
  }
}

void build_index(const std::string& dir, const std::vector<Document>& docs, IndexWriterOptions options) {
  IndexWriter writer(dir, options);
  for (const auto& d : docs) writer.add(d);
  writer.commit();
}

// Searcher results for query against the brute force; returns false (after
// recording failures) on the first mismatch so one bug does not flood.
bool check_query(const Searcher& searcher, const BruteForce& brute, const QueryNode* query, std::mt19937& rng) {
  const std::string text = query_to_string(query);
  BruteForce::Result truth = query ? brute.evaluate(*query) : BruteForce::Result{};
  std::vector<DocId> expected;
  for (DocId d = 0; d < truth.match.size(); ++d)
    if (truth.match[d]) expected.push_back(d);
  std::vector<DocId> got;
  searcher.matching_docs(query, got);
  EXPECT_EQ(got, expected) << text;
  if (got != expected) return false;
  EXPECT_EQ(searcher.count(query), expected.size()) << text;

  SearchRequest request;
  request.limit = 1 + rng() % 12;
  request.offset = rng() % 3 == 0 ? rng() % 6 : 0;
  std::vector<ScoredDoc> ranked = BruteForce::rank(truth);
  const size_t want = ranked.size() > request.offset ? std::min(request.limit, ranked.size() - request.offset) : 0;
  // Exact counts, then pruned ranking (MaxScore) from the first hit on and
  // from a random threshold on: the same top hits every time.
  const uint64_t thresholds[] = {kExactHitCount, 0, rng() % 40};
  for (uint64_t threshold : thresholds) {
    request.total_hits_threshold = threshold;
    SearchResponse response = searcher.search(query, request);
    const std::string what = text + " (total-hits threshold " + std::to_string(threshold) + ")";
    if (threshold == kExactHitCount) {
      EXPECT_TRUE(response.total_hits_exact) << what;
      EXPECT_EQ(response.total_hits, expected.size()) << what;
    } else {
      EXPECT_LE(response.total_hits, expected.size()) << what;
      EXPECT_GE(response.total_hits, std::min<uint64_t>({threshold, expected.size()})) << what;
      if (response.total_hits_exact) {
        EXPECT_EQ(response.total_hits, expected.size()) << what;
      }
    }
    EXPECT_EQ(response.hits.size(), want) << what;
    if (response.hits.size() != want) return false;
    for (size_t i = 0; i < want; ++i) {
      const ScoredDoc& hit = response.hits[i];
      const double expect_rank_score = ranked[request.offset + i].score;
      const double tolerance = 1e-4 * std::max(1.0, std::abs(expect_rank_score));
      EXPECT_TRUE(truth.match[hit.doc]) << what << " hit " << hit.doc;
      EXPECT_NEAR(hit.score, truth.score[hit.doc], tolerance) << what << " doc " << hit.doc;
      EXPECT_NEAR(hit.score, expect_rank_score, tolerance) << what << " rank " << i;
      if (std::abs(hit.score - expect_rank_score) > tolerance) return false;
    }
  }
  request.total_hits_threshold = kExactHitCount;

  request.order = SearchRequest::Order::kDocId;
  SearchResponse response = searcher.search(query, request);
  EXPECT_EQ(response.total_hits, expected.size()) << text;
  std::vector<DocId> window;
  for (size_t i = request.offset; i < expected.size() && window.size() < request.limit; ++i)
    window.push_back(expected[i]);
  std::vector<DocId> got_window;
  for (const auto& h : response.hits) got_window.push_back(h.doc);
  EXPECT_EQ(got_window, window) << text;
  return !::testing::Test::HasFailure();
}

struct Config {
  size_t docs;
  uint32_t seed;
  uint32_t max_segment_docs;  // 0: one merged segment
};

class QueryPropertyTest : public ::testing::TestWithParam<Config> {};

TEST_P(QueryPropertyTest, SearcherAgreesWithBruteForce) {
  const Config config = GetParam();
  Corpus corpus(config.seed);
  std::vector<Document> docs = corpus.documents(config.docs);
  test::TempDir dir;
  IndexWriterOptions options;
  options.ram_mb = 16;
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
    ASSERT_TRUE(check_query(cached, brute, query.get(), rng)) << text;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpora, QueryPropertyTest,
                         ::testing::Values(Config{300, 1, 0}, Config{1000, 2, 0}, Config{3000, 3, 0},
                                           Config{1200, 4, 97}, Config{2500, 5, 300}));

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
