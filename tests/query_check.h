// Random corpora and analyzed queries over them, and the comparison of a
// Searcher with the brute-force evaluator (match sets, counts, top-k ids and
// scores, doc-id order), shared by the property tests.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "brute_force.h"
#include "dump/document.h"
#include "query/query_node.h"
#include "query/searcher.h"

namespace fts::test {

inline const std::vector<std::string> kWords = {
    "cat",  "dog",   "wild",  "small", "search", "engine", "river", "bank",  "money", "stream", "fast", "slow",
    "ha",   "run",   "index", "query", "data",   "tree",   "leaf",  "root",  "node",  "edge",   "graph", "path",
    "the",  "of",    "and",   "to",    "zürich", "1984",   "moon",  "star",  "sun",   "rain",   "snow",  "wind"};

// Pair words (index/format/word_pairs.h) for corpora of kWords: the
// commonest of them as the analyzer gives them, and "ha", which repeats.
inline std::vector<std::string> pair_words() {
  return {"cat", "dog", "wild", "small", "search", "engin", "river", "bank", "ha"};
}

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
inline std::string random_query_text(std::mt19937& rng, Corpus& corpus, int depth) {
  unsigned pick = rng() % 14;
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
    case 11: {  // a clause beside its own negation, which the rewrite drops
      const std::string q = random_query_text(rng, corpus, depth - 1);
      return "((" + q + ") NOT (" + q + ") OR " + corpus.word() + ")";
    }
    case 12: {  // a repeated clause, which the rewrite weights
      const std::string q = random_query_text(rng, corpus, depth - 1);
      return "((" + q + ") OR (" + q + ") " + corpus.word() + ")";
    }
    default:
      return random_query_text(rng, corpus, depth - 1) + " AND " + random_query_text(rng, corpus, depth - 1);
  }
}


// Searcher results for query against the brute force; returns false (after
// recording failures) on the first mismatch so one bug does not flood.
// threads: segments searched at once.
inline bool check_query(const Searcher& searcher, const BruteForce& brute, const QueryNode* query, std::mt19937& rng,
                        unsigned threads = 1) {
  const std::string text = query_to_string(query);
  BruteForce::Result truth = query ? brute.evaluate(*query) : BruteForce::Result{};
  std::vector<DocId> expected;
  for (DocId d = 0; d < truth.match.size(); ++d)
    if (truth.match[d]) expected.push_back(d);
  std::vector<DocId> got;
  searcher.matching_docs(query, got, nullptr, threads);
  EXPECT_EQ(got, expected) << text;
  if (got != expected) return false;
  EXPECT_EQ(searcher.count(query, nullptr, threads), expected.size()) << text;

  SearchRequest request;
  request.threads = threads;
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

  // Doc order: the same window of ids with an exact count and with a
  // threshold (past it, the count is a lower bound).
  request.order = SearchRequest::Order::kDocId;
  std::vector<DocId> window;
  for (size_t i = request.offset; i < expected.size() && window.size() < request.limit; ++i)
    window.push_back(expected[i]);
  for (uint64_t threshold : {kExactHitCount, uint64_t(rng() % 40)}) {
    request.total_hits_threshold = threshold;
    SearchResponse response = searcher.search(query, request);
    const std::string what = text + " (doc order, total-hits threshold " + std::to_string(threshold) + ")";
    if (response.total_hits_exact) {
      EXPECT_EQ(response.total_hits, expected.size()) << what;
    } else {
      EXPECT_NE(threshold, kExactHitCount) << what;
      EXPECT_LT(response.total_hits, expected.size()) << what;
      EXPECT_GE(response.total_hits, std::min<uint64_t>(threshold, expected.size())) << what;
    }
    std::vector<DocId> got_window;
    for (const auto& h : response.hits) got_window.push_back(h.doc);
    EXPECT_EQ(got_window, window) << what;
  }
  return !::testing::Test::HasFailure();
}

}  // namespace fts::test
