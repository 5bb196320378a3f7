// What an embedder needs beyond search(): pages, lazily loaded stored
// fields, a document by id, the plan as a tree, time budgets and
// cancellation, validated options. Through the public header only, except
// the time-budget test of the searcher itself, which needs an interrupt
// that has already expired.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "engine/fts.h"
#include "fts/fts.h"
#include "query/interrupt.h"
#include "support/test_support.h"

namespace {

using namespace std::chrono_literals;

std::vector<fts::Document> corpus(size_t n) {
  static const char* words[] = {"cat", "dog", "red", "fish", "blue", "moon", "tree", "lake", "river", "town"};
  std::mt19937 rng(3);
  std::vector<fts::Document> docs;
  for (size_t i = 0; i < n; ++i) {
    fts::Document d;
    d.title = std::string(words[rng() % 10]) + " " + std::to_string(i);
    d.url = "https://example.org/" + std::to_string(i);
    for (int k = 0; k < 12; ++k) d.abstract += std::string(words[rng() % 10]) + " ";
    docs.push_back(std::move(d));
  }
  return docs;
}

class Embedding : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new fts::test::TempDir;
    fts::IndexWriter writer(dir_->str(), {.merge = false, .max_segment_docs = 6000});
    for (auto& d : corpus(kDocs)) writer.add(std::move(d));
    writer.commit();
  }
  static void TearDownTestSuite() { delete dir_; }
  static constexpr size_t kDocs = 12000;
  static fts::test::TempDir* dir_;
  fts::Index index_ = fts::Index::open(dir_->str());
};
fts::test::TempDir* Embedding::dir_ = nullptr;

TEST_F(Embedding, PagesConcatenateToOneLongSearch) {
  for (auto sort : {fts::SearchOptions::Sort::kScore, fts::SearchOptions::Sort::kDocId}) {
    fts::Results all = index_.search("cat OR moon", {.limit = 60, .sort = sort, .stored_fields = false});
    ASSERT_EQ(all.hits.size(), 60u);
    for (size_t page = 0; page < 6; ++page) {
      fts::Results r = index_.search("cat OR moon", {.limit = 10, .offset = page * 10, .sort = sort, .stored_fields = false});
      EXPECT_EQ(r.total_hits, all.total_hits);
      ASSERT_EQ(r.hits.size(), 10u);
      for (size_t i = 0; i < 10; ++i) {
        EXPECT_EQ(r.hits[i].doc, all.hits[page * 10 + i].doc) << "page " << page << " hit " << i;
        EXPECT_EQ(r.hits[i].score, all.hits[page * 10 + i].score);
      }
    }
  }
}

TEST_F(Embedding, StoredFieldsLoadedLaterEqualEagerOnes) {
  fts::Query q = index_.parse("\"red fish\" title:town");
  fts::Results eager = index_.search(q, {.limit = 15, .snippet_chars = 60});
  fts::Results lazy = index_.search(q, {.limit = 15, .stored_fields = false});
  ASSERT_EQ(eager.hits.size(), lazy.hits.size());
  ASSERT_FALSE(eager.hits.empty());
  for (size_t i = 0; i < lazy.hits.size(); ++i) {
    fts::Hit& h = lazy.hits[i];
    EXPECT_TRUE(h.title.empty() && h.url.empty() && h.snippet.empty());
    index_.load_stored(q, h, 60);
    EXPECT_EQ(h.doc, eager.hits[i].doc);
    EXPECT_EQ(h.title, eager.hits[i].title);
    EXPECT_EQ(h.url, eager.hits[i].url);
    EXPECT_EQ(h.snippet, eager.hits[i].snippet);
    EXPECT_EQ(h.highlights.size(), eager.hits[i].highlights.size());
  }
}

TEST_F(Embedding, DocumentByIdIsTheOneAdded) {
  std::vector<fts::Document> docs = corpus(kDocs);
  for (fts::DocId id : {0u, 1u, 3999u, 4000u, 11999u}) {
    fts::Document d = index_.document(id);
    EXPECT_EQ(d.title, docs[id].title);
    EXPECT_EQ(d.url, docs[id].url);
    EXPECT_EQ(d.abstract, docs[id].abstract);
  }
  try {
    index_.document(kDocs);
    FAIL() << "a doc past the index";
  } catch (const fts::ArgumentError& e) {
    EXPECT_EQ(e.where(), "doc id");
  }
  fts::Hit past;
  past.doc = kDocs;
  EXPECT_THROW(index_.load_stored(index_.parse("cat"), past), fts::ArgumentError);
}

size_t count_nodes(const fts::ExplainNode& n) {
  size_t total = 1;
  for (const auto& c : n.children) total += count_nodes(c);
  return total;
}

void collect(const fts::ExplainNode& n, std::vector<std::string>& out) {
  out.push_back(n.what);
  for (const auto& c : n.children) collect(c, out);
}

TEST_F(Embedding, ExplainTreeIsTheTextPlanAsData) {
  const std::string query = "cat (dog OR \"red fish\") -moon";
  fts::ExplainNode tree = index_.explain_tree(query);
  EXPECT_EQ(tree.what, "query " + index_.parse(query).to_string());
  ASSERT_EQ(tree.children.size(), 2u);  // one per segment
  std::string text = index_.explain(query);
  EXPECT_EQ(count_nodes(tree), static_cast<size_t>(std::count(text.begin(), text.end(), '\n')));
  for (const auto& segment : tree.children) {
    EXPECT_EQ(segment.what.rfind("segment ", 0), 0u) << segment.what;
    ASSERT_EQ(segment.children.size(), 1u);  // the plan's root cursor
    std::vector<std::string> names;
    collect(segment, names);
    EXPECT_NE(std::find(names.begin(), names.end(), "term cat"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "term moon"), names.end());
    // An OR's phrase beside other AND children is confirmed last.
    EXPECT_NE(std::find(names.begin(), names.end(), "phrase(two-phase) \"red fish\""), names.end());
  }
  // Costs are the text's: a term's cost is its document frequency in the segment.
  EXPECT_GT(tree.children[0].children[0].cost, 0u);
  fts::ExplainNode nothing = index_.explain_tree("the");
  EXPECT_TRUE(nothing.children.empty());
}

TEST_F(Embedding, ACancelFlagStopsEveryKindOfCall) {
  std::atomic<bool> cancel{true};
  fts::SearchOptions options{.cancel = &cancel};
  fts::Query q = index_.parse("-moon");
  EXPECT_THROW(index_.search(q, options), fts::CancelledError);
  EXPECT_THROW(index_.count(q, options), fts::CancelledError);
  EXPECT_THROW(index_.matching_docs(q, options), fts::CancelledError);
  cancel = false;
  EXPECT_EQ(index_.count(q, options), index_.count(q));
  EXPECT_EQ(index_.search(q, options).total_hits, index_.count(q));
}

TEST_F(Embedding, AGenerousTimeBudgetChangesNothing) {
  for (const char* query : {"cat", "-moon", "red fish", "\"red fish\" OR town"}) {
    fts::Query q = index_.parse(query);
    fts::SearchOptions budget{.limit = 20, .time_budget = 60s};
    fts::Results a = index_.search(q, budget), b = index_.search(q, {.limit = 20});
    EXPECT_EQ(a.total_hits, b.total_hits);
    ASSERT_EQ(a.hits.size(), b.hits.size());
    for (size_t i = 0; i < a.hits.size(); ++i) EXPECT_EQ(a.hits[i].doc, b.hits[i].doc);
    EXPECT_EQ(index_.count(q, budget), index_.count(q));
    EXPECT_EQ(index_.matching_docs(q, budget), index_.matching_docs(q));
  }
}

// matching_docs into a caller's buffer: the same ids as the returning
// form, whatever the buffer held, its capacity kept for the next call.
TEST_F(Embedding, MatchingDocsFillsTheCallersBuffer) {
  std::vector<fts::DocId> out = {7, 7, 7};
  for (const char* query : {"-moon", "cat", "\"red fish\" OR town", "zzzz"}) {
    fts::Query q = index_.parse(query);
    index_.matching_docs(q, out);
    EXPECT_EQ(out, index_.matching_docs(q)) << query;
  }
  index_.matching_docs(index_.parse("-moon"), out);
  const size_t capacity = out.capacity();
  index_.matching_docs(index_.parse("cat"), out);
  EXPECT_EQ(out.capacity(), capacity);
}

// The searcher under an interrupt whose budget has already run out: every
// call over more than Interrupt::kStride matches throws TimeoutError.
TEST_F(Embedding, AnExpiredBudgetStopsTheSearcher) {
  const fts::Searcher& searcher = fts::InternalAccess::searcher(index_);
  fts::Query q = index_.parse("-zzzz");  // every doc
  const fts::QueryNode* root = fts::InternalAccess::root(q);
  ASSERT_GT(index_.count(q), 2 * fts::Interrupt::kStride);
  auto expired = [] {
    fts::Interrupt i(1ms, nullptr);
    std::this_thread::sleep_for(3ms);
    return i;
  };
  for (auto order : {fts::SearchRequest::Order::kScore, fts::SearchRequest::Order::kDocId}) {
    fts::Interrupt i = expired();
    fts::SearchRequest request;
    request.limit = 1'000'000;
    request.order = order;
    request.interrupt = &i;
    EXPECT_THROW(searcher.search(root, request), fts::TimeoutError);
  }
  // Per segment, more docs than the cost below which a count takes its
  // shortcut uninterrupted (an all-docs count is its doc count).
  fts::Query every = index_.parse("-zzzz");
  fts::Interrupt i1 = expired(), i2 = expired();
  std::vector<fts::DocId> out;
  try {
    searcher.count(fts::InternalAccess::root(every), &i1);
    FAIL() << "count finished past its budget";
  } catch (const fts::TimeoutError& e) {
    EXPECT_EQ(e.where(), "search");
    EXPECT_NE(std::string(e.what()).find("time budget of 1 ms exceeded"), std::string::npos) << e.what();
  }
  EXPECT_THROW(searcher.matching_docs(fts::InternalAccess::root(every), out, &i2), fts::TimeoutError);
  // The index answers normally afterwards.
  EXPECT_EQ(index_.count(every), kDocs);
}

TEST_F(Embedding, RefusedOptionsNameTheOption) {
  auto where = [&](const fts::SearchOptions& o) -> std::string {
    try {
      index_.search("cat", o);
    } catch (const fts::ArgumentError& e) {
      return e.where();
    }
    return "";
  };
  EXPECT_EQ(where({.snippet_chars = fts::SearchOptions::kMaxSnippetChars + 1}), "SearchOptions::snippet_chars");
  EXPECT_EQ(where({.time_budget = -5ms}), "SearchOptions::time_budget");
  EXPECT_EQ(where({.sort = static_cast<fts::SearchOptions::Sort>(9)}), "SearchOptions::sort");
  EXPECT_EQ(where({.limit = 0, .time_budget = 1s}), "");  // valid: counts only
  EXPECT_THROW(index_.count("cat", {.time_budget = -1ms}), fts::ArgumentError);
}

TEST_F(Embedding, GenerationGrowsWithEachCommit) {
  fts::test::TempDir dir;
  {
    fts::IndexWriter w(dir.str());
    w.add({.title = "a", .abstract = "cat"});
    w.commit();
  }
  fts::Index first = fts::Index::open(dir.str());
  {
    fts::IndexWriter w(dir.str());
    w.add({.title = "b", .abstract = "dog"});
    w.commit();
  }
  fts::Index second = fts::Index::open(dir.str());
  EXPECT_GT(second.generation(), first.generation());
  EXPECT_EQ(first.count("cat"), 1u);  // the open Index keeps its snapshot
  EXPECT_EQ(first.count("dog"), 0u);
  EXPECT_EQ(second.count("cat"), 1u);  // a writer on an existing index appends
  EXPECT_EQ(second.count("dog"), 1u);
}

}  // namespace
