// One Searcher, four threads: every thread's results equal the
// single-threaded ones (per-call cursor trees; only the cache is shared, and
// it is hit and filled concurrently here); and two threads whose calls each
// search the segments on three.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "analyzer/analyzer.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/parser.h"
#include "query/searcher.h"
#include "support/test_support.h"

namespace fts {
namespace {

TEST(SearcherConcurrencyTest, FourThreadsSeeSingleThreadedResults) {
  test::TempDir dir;
  {
    IndexWriterOptions options;
    options.merge = false;
    options.max_segment_docs = 700;
    IndexWriter writer(dir.str(), options);
    const char* words[] = {"cat", "dog", "wild", "small", "river", "bank", "fish", "bird", "tree", "moon"};
    std::mt19937 rng(1);
    for (int i = 0; i < 4000; ++i) {
      Document d;
      for (int k = rng() % 4; k > 0; --k) d.title += std::string(words[rng() % 10]) + " ";
      for (int k = rng() % 30; k > 0; --k) d.abstract += std::string(words[rng() % 10]) + " ";
      writer.add(d);
    }
    writer.commit();
  }
  auto index = IndexReader::open(dir.str());
  Searcher searcher(index, SearcherOptions{4 << 20, 1});
  Analyzer analyzer;
  std::vector<std::unique_ptr<QueryNode>> queries;
  for (const char* q : {"cat dog", "cat OR dog OR fish", "\"wild cat\"", "-moon", "title:cat -abstract:dog",
                        "(river OR bank) \"small fish\"", "a OR -tree", "wild cat OR moon -bird",
                        "cat OR dog OR fish OR bird OR tree OR moon OR river OR bank OR wild OR small"}) {
    queries.push_back(parse_query(q, analyzer));
  }
  struct Expected {
    std::vector<DocId> docs;
    SearchResponse top;
  };
  std::vector<Expected> expected;
  {
    Searcher reference(index, SearcherOptions{0, 0});
    for (const auto& q : queries) {
      Expected e;
      reference.matching_docs(q.get(), e.docs);
      e.top = reference.search(q.get(), {});
      expected.push_back(std::move(e));
    }
  }
  // Mismatches of one call of each kind for query q, its segments searched
  // on per_call threads.
  auto mismatches = [&](size_t q, unsigned per_call, std::vector<DocId>& docs) {
    int wrong = 0;
    searcher.matching_docs(queries[q].get(), docs, nullptr, per_call);
    wrong += docs != expected[q].docs;
    wrong += searcher.count(queries[q].get(), nullptr, per_call) != expected[q].docs.size();
    SearchRequest request;
    request.threads = per_call;
    SearchResponse r = searcher.search(queries[q].get(), request);
    if (r.total_hits != expected[q].top.total_hits || r.hits.size() != expected[q].top.hits.size()) return wrong + 1;
    for (size_t h = 0; h < r.hits.size(); ++h)
      wrong += r.hits[h].doc != expected[q].top.hits[h].doc || r.hits[h].score != expected[q].top.hits[h].score;
    return wrong;
  };
  // Calls on `callers` threads at once, each call's segments on per_call.
  auto run = [&](int callers, unsigned per_call, int rounds) {
    std::vector<int> failures(static_cast<size_t>(callers), 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < callers; ++t) {
      threads.emplace_back([&, t] {
        std::vector<DocId> docs;
        for (int round = 0; round < rounds; ++round) {
          for (size_t i = 0; i < queries.size(); ++i) {
            failures[t] += mismatches((i + static_cast<size_t>(t) * 3) % queries.size(), per_call, docs);
          }
        }
      });
    }
    for (auto& th : threads) th.join();
    for (int t = 0; t < callers; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t << ", " << per_call << " per call";
  };
  run(4, 1, 30);
  EXPECT_GT(searcher.cache_stats().hits, 0u);
  // Each call's segments on 3 threads of the shared pool, from two threads
  // at once: the same answers, scores to the bit (each segment then prunes
  // from a threshold of its own).
  run(2, 3, 10);
}

}  // namespace
}  // namespace fts
