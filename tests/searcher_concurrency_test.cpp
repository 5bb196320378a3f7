// One Searcher, four threads: every thread's results equal the
// single-threaded ones (per-call cursor trees; only the cache is shared, and
// it is hit and filled concurrently here).
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
  std::vector<int> failures(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<DocId> docs;
      for (int round = 0; round < 30; ++round) {
        for (size_t i = 0; i < queries.size(); ++i) {
          size_t q = (i + static_cast<size_t>(t) * 3) % queries.size();
          searcher.matching_docs(queries[q].get(), docs);
          if (docs != expected[q].docs) ++failures[t];
          if (searcher.count(queries[q].get()) != expected[q].docs.size()) ++failures[t];
          SearchResponse r = searcher.search(queries[q].get(), {});
          if (r.total_hits != expected[q].top.total_hits || r.hits.size() != expected[q].top.hits.size()) {
            ++failures[t];
            continue;
          }
          for (size_t h = 0; h < r.hits.size(); ++h)
            if (r.hits[h].doc != expected[q].top.hits[h].doc || r.hits[h].score != expected[q].top.hits[h].score)
              ++failures[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(failures[t], 0) << "thread " << t;
  EXPECT_GT(searcher.cache_stats().hits, 0u);

  // Each call's segments searched on 3 threads, from two threads at once
  // (the pool is shared): the same answers, scores to the bit (each
  // segment then prunes from a threshold of its own).
  std::vector<int> parallel_failures(2, 0);
  threads.clear();
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&, t] {
      std::vector<DocId> docs;
      SearchRequest request;
      request.threads = 3;
      for (int round = 0; round < 10; ++round) {
        for (size_t q = 0; q < queries.size(); ++q) {
          searcher.matching_docs(queries[q].get(), docs, nullptr, 3);
          if (docs != expected[q].docs) ++parallel_failures[t];
          if (searcher.count(queries[q].get(), nullptr, 3) != expected[q].docs.size()) ++parallel_failures[t];
          SearchResponse r = searcher.search(queries[q].get(), request);
          if (r.total_hits != expected[q].top.total_hits || r.hits.size() != expected[q].top.hits.size()) {
            ++parallel_failures[t];
            continue;
          }
          for (size_t h = 0; h < r.hits.size(); ++h)
            if (r.hits[h].doc != expected[q].top.hits[h].doc || r.hits[h].score != expected[q].top.hits[h].score)
              ++parallel_failures[t];
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int t = 0; t < 2; ++t) EXPECT_EQ(parallel_failures[t], 0) << "thread " << t << ", 3 threads per call";
}

}  // namespace
}  // namespace fts
