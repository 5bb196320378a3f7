// The segments' Bloom filters: no false negatives, a measured false-positive
// rate near the 1% that 10 bits and 7 probes a key promise, and a segment's
// filter covering every key of its dictionary.
#include <gtest/gtest.h>

#include <string>

#include "index/format/bloom_filter.h"
#include "index/format/segment_files.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "support/test_support.h"

namespace fts {
namespace {

TEST(BloomFilter, NoFalseNegativesAndAboutOnePercentFalsePositives) {
  test::TempDir dir;
  const std::string path = dir.str("f.bloom");
  BloomFilterWriter writer;
  const int keys = 50000;
  for (int i = 0; i < keys; ++i) writer.add("\x01key" + std::to_string(i));
  writer.write(path);
  MappedFile file(path, FileKind::kBloom);
  file.verify_checksum();
  BloomFilter filter(file.payload(), path);
  EXPECT_EQ(file.payload().size(), 16u + (keys * 10 + 63) / 64 * 8);  // 10 bits a key, in whole words
  for (int i = 0; i < keys; ++i) ASSERT_TRUE(filter.may_contain("\x01key" + std::to_string(i))) << i;
  int false_positives = 0;
  const int probes = 200000;
  for (int i = 0; i < probes; ++i) false_positives += filter.may_contain(std::string("\x01") + "absent" + std::to_string(i));
  const double rate = double(false_positives) / probes;
  std::printf("Bloom filter false-positive rate: %.3f%% (%d of %d absent keys)\n", 100 * rate, false_positives, probes);
  EXPECT_GT(rate, 0.002);  // a filter that says "absent" to everything would pass the bound below
  EXPECT_LT(rate, 0.015);
}

TEST(BloomFilter, DamagedHeaderIsAnIndexError) {
  std::vector<uint8_t> payload(16 + 8, 0);
  payload[0] = 7;
  payload[8] = 65;  // 65 bits: not whole words
  EXPECT_THROW(BloomFilter(payload, "x.bloom"), IndexError);
}

TEST(BloomFilter, EverySegmentKeyPassesAndAbsentTermsAreAnsweredByTheFilter) {
  test::TempDir dir;
  {
    IndexWriter w(dir.str(), {.merge = false, .max_segment_docs = 2});
    w.add({.title = "cat", .url = "1", .abstract = "small wild cat"});
    w.add({.title = "dog", .url = "2", .abstract = "barking dog"});
    w.add({.title = "bird", .url = "3", .abstract = "singing bird"});
    w.commit();
    w.force_merge(1);  // merged segments get filters too
    w.commit();
  }
  auto index = IndexReader::open(dir.str());
  ASSERT_EQ(index->segments().size(), 1u);
  const SegmentReader& seg = *index->segments()[0].reader;
  ASSERT_FALSE(seg.bloom().empty());
  for (auto it = seg.terms().begin(); it.valid(); it.next()) EXPECT_TRUE(seg.bloom().may_contain(it.key()));
  EXPECT_TRUE(seg.lookup(Field::kTitle, "dog").has_value());
  EXPECT_FALSE(seg.lookup(Field::kTitle, "zebra").has_value());
  index->check();
}

}  // namespace
}  // namespace fts
