// The filter cache alone (sightings, hits/misses, byte bound, LRU order,
// generation invalidation) and inside a Searcher (repeated subqueries are
// served from bitmaps with unchanged results, explain shows it).
#include <gtest/gtest.h>

#include <memory>

#include "analyzer/analyzer.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "query/filter_cache.h"
#include "query/parser.h"
#include "query/searcher.h"
#include "support/test_support.h"

namespace fts {
namespace {

std::shared_ptr<const Roaring> bitmap_of(uint32_t first, uint32_t count, uint32_t step) {
  auto b = std::make_shared<Roaring>();
  for (uint32_t i = 0; i < count; ++i) b->add(first + i * step);
  return b;
}

FilterCache::Key key(const std::string& query, uint64_t generation = 1, const std::string& segment = "s0") {
  return FilterCache::Key{generation, segment, query};
}

TEST(FilterCacheTest, CountsSightingsHitsAndMisses) {
  FilterCache cache(1 << 20, 100);
  auto first = cache.lookup(key("AND(a, b)"));
  EXPECT_EQ(first.bitmap, nullptr);
  EXPECT_EQ(first.sightings, 1u);
  EXPECT_FALSE(cache.worth_caching(first.sightings, 1000));
  auto second = cache.lookup(key("AND(a, b)"));
  EXPECT_EQ(second.sightings, 2u);
  EXPECT_TRUE(cache.worth_caching(second.sightings, 1000));
  EXPECT_FALSE(cache.worth_caching(second.sightings, 99));  // too cheap to be worth it

  cache.insert(key("AND(a, b)"), bitmap_of(0, 10, 3));
  auto hit = cache.lookup(key("AND(a, b)"));
  ASSERT_NE(hit.bitmap, nullptr);
  EXPECT_EQ(hit.bitmap->cardinality(), 10u);
  EXPECT_EQ(cache.lookup(key("AND(a, b)", 1, "s1")).bitmap, nullptr);  // other segment
  CacheStats s = cache.stats();
  EXPECT_EQ(s.hits, 1u);
  EXPECT_EQ(s.misses, 3u);
  EXPECT_EQ(s.entries, 1u);
  EXPECT_GT(s.bytes, 0u);
  EXPECT_EQ(s.capacity_bytes, 1u << 20);
  // peek changes nothing.
  EXPECT_NE(cache.peek(key("AND(a, b)")), nullptr);
  EXPECT_EQ(cache.stats().hits, 1u);
}

TEST(FilterCacheTest, EvictsLeastRecentlyUsedWithinByteBound) {
  // Dense bitmaps of ~8 KB each (one bitset container).
  auto big = [](uint32_t first) { return bitmap_of(first << 16, 30000, 2); };
  const size_t one = big(0)->getSizeInBytes();
  FilterCache cache(3 * one + 1000, 1);
  cache.insert(key("A"), big(0));
  cache.insert(key("B"), big(1));
  cache.insert(key("C"), big(2));
  EXPECT_EQ(cache.stats().entries, 3u);
  EXPECT_NE(cache.lookup(key("A")).bitmap, nullptr);  // A is now most recent; B least
  cache.insert(key("D"), big(3));
  EXPECT_EQ(cache.stats().entries, 3u);
  EXPECT_LE(cache.stats().bytes, cache.stats().capacity_bytes);
  EXPECT_EQ(cache.peek(key("B")), nullptr);
  EXPECT_NE(cache.peek(key("A")), nullptr);
  EXPECT_NE(cache.peek(key("C")), nullptr);
  EXPECT_NE(cache.peek(key("D")), nullptr);

  // A bitmap larger than the whole cache is not kept (and evicts nothing).
  FilterCache tiny(one / 2, 1);
  tiny.insert(key("small"), bitmap_of(0, 3, 1));
  tiny.insert(key("huge"), big(0));
  EXPECT_EQ(tiny.peek(key("huge")), nullptr);
  EXPECT_NE(tiny.peek(key("small")), nullptr);
}

TEST(FilterCacheTest, EvictedBitmapStaysAliveWhileInUse) {
  const size_t one = bitmap_of(0, 30000, 2)->getSizeInBytes();
  FilterCache cache(one + 1000, 1);
  cache.insert(key("A"), bitmap_of(0, 30000, 2));
  auto in_use = cache.lookup(key("A")).bitmap;
  ASSERT_NE(in_use, nullptr);
  cache.insert(key("B"), bitmap_of(1 << 16, 30000, 2));
  EXPECT_EQ(cache.peek(key("A")), nullptr);
  EXPECT_EQ(in_use->cardinality(), 30000u);
}

TEST(FilterCacheTest, NewGenerationInvalidatesOlderEntries) {
  FilterCache cache(1 << 20, 1);
  cache.insert(key("A", 1), bitmap_of(0, 10, 1));
  cache.insert(key("B", 1), bitmap_of(0, 10, 1));
  EXPECT_EQ(cache.stats().entries, 2u);
  EXPECT_EQ(cache.lookup(key("A", 2)).bitmap, nullptr);
  EXPECT_EQ(cache.stats().entries, 0u);
  EXPECT_EQ(cache.stats().bytes, 0u);
  // Sightings start over too, and outdated inserts are refused.
  EXPECT_EQ(cache.lookup(key("A", 2)).sightings, 2u);
  cache.insert(key("C", 1), bitmap_of(0, 10, 1));
  EXPECT_EQ(cache.peek(key("C", 1)), nullptr);
}

void build(const std::string& dir, int docs, int seed) {
  IndexWriterOptions options;
  options.merge = false;
  options.max_segment_docs = 400;
  IndexWriter writer(dir, options);
  for (int i = 0; i < docs; ++i) {
    Document d;
    d.title = (i % 3 ? "wild cat " : "dog ") + std::to_string(i % 17);
    d.abstract = std::string(i % 2 ? "small wild cat" : "big dog") + (i % 5 == seed ? " fish" : " bird");
    writer.add(d);
  }
  writer.commit();
}

TEST(SearcherCacheTest, RepeatedSubqueriesComeFromBitmapsWithSameResults) {
  test::TempDir dir;
  build(dir.str(), 2000, 0);
  auto index = IndexReader::open(dir.str());
  ASSERT_GT(index->segments().size(), 2u);
  Searcher searcher(index, SearcherOptions{1 << 20, 10});
  Analyzer analyzer;
  auto query = parse_query("(cat OR dog) -\"small wild\" fish", analyzer);
  const uint64_t expected = searcher.count(query.get());
  EXPECT_EQ(searcher.cache_stats().hits, 0u);
  EXPECT_EQ(searcher.count(query.get()), expected);  // second sighting: materialised
  EXPECT_GT(searcher.cache_stats().entries, 0u);
  EXPECT_EQ(searcher.count(query.get()), expected);  // served from the cache
  EXPECT_GT(searcher.cache_stats().hits, 0u);
  EXPECT_NE(searcher.explain(query.get()).find("from cache"), std::string::npos) << searcher.explain(query.get());

  // Scoring searches use the cache for the negated side only; results agree
  // with an uncached searcher.
  Searcher plain(index, SearcherOptions{0, 0});
  for (int rep = 0; rep < 3; ++rep) {
    SearchResponse a = searcher.search(query.get(), {});
    SearchResponse b = plain.search(query.get(), {});
    EXPECT_EQ(a.total_hits, expected);
    ASSERT_EQ(a.hits.size(), b.hits.size());
    for (size_t i = 0; i < a.hits.size(); ++i) {
      EXPECT_EQ(a.hits[i].doc, b.hits[i].doc);
      EXPECT_EQ(a.hits[i].score, b.hits[i].score);
    }
  }
  EXPECT_EQ(plain.cache_stats().entries, 0u);
}

}  // namespace
}  // namespace fts
