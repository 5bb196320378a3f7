// The segments' url tables: for every url, the docs a pass over the doc
// store finds, also for two urls whose 32-bit hashes collide and for urls
// shared by several docs; in flushed and in merged segments; damage found.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "index/format/url_table.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "support/test_support.h"

namespace fts {
namespace {

// Two distinct urls with the same url_hash, found by the birthday bound
// (about 77,000 tries for even odds at 32 bits; 400,000 make it near certain).
std::pair<std::string, std::string> colliding_urls() {
  std::unordered_map<uint32_t, std::string> seen;
  for (int i = 0; i < 400000; ++i) {
    std::string url = "https://example.org/" + std::to_string(i);
    auto [it, fresh] = seen.emplace(url_hash(url), url);
    if (!fresh) return {it->second, url};
  }
  return {};
}

std::vector<DocId> scan(const SegmentReader& seg, const std::string& url) {
  std::vector<DocId> docs;
  for (DocId d = 0; d < seg.doc_count(); ++d) {
    if (seg.doc_store().get(d).url == url) docs.push_back(d);
  }
  return docs;
}

TEST(UrlTable, FindsWhatAScanFindsInFlushedAndMergedSegments) {
  const auto [a, b] = colliding_urls();
  ASSERT_FALSE(a.empty()) << "no collision among 400,000 urls";
  ASSERT_EQ(url_hash(a), url_hash(b));
  std::mt19937 rng(5);
  std::vector<std::string> urls = {a, b, "", "https://example.org/shared"};
  for (int i = 0; i < 50; ++i) urls.push_back("https://example.org/page/" + std::to_string(i));
  test::TempDir dir;
  IndexWriter w(dir.str(), {.merge = false, .max_segment_docs = 97});
  std::map<std::string, int> copies;
  for (int i = 0; i < 600; ++i) {
    const std::string& url = urls[rng() % urls.size()];
    ++copies[url];
    w.add(Document{.title = "t", .url = url, .abstract = "doc " + std::to_string(i)});
  }
  w.commit();
  ASSERT_GT(copies[a], 0);
  ASSERT_GT(copies[b], 0);
  for (bool merged : {false, true}) {
    if (merged) {
      w.force_merge(1);
      w.commit();
    }
    auto index = IndexReader::open(dir.str());
    ASSERT_EQ(index->segments().size(), merged ? 1u : 7u);
    for (const auto& s : index->segments()) {
      ASSERT_TRUE(s.reader->has_url_table());
      for (const auto& url : urls) EXPECT_EQ(s.reader->docs_with_url(url), scan(*s.reader, url)) << url;
      EXPECT_TRUE(s.reader->docs_with_url("https://example.org/absent").empty());
    }
    index->check();
  }
  // Deleting one of the colliding urls leaves every doc of the other.
  w.delete_url(a);
  w.commit();
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->live_count(), 600u - copies[a]);
  for (const auto& s : index->segments()) {
    for (DocId d : s.reader->docs_with_url(b)) EXPECT_TRUE(s.is_live(d));
    EXPECT_EQ(s.reader->docs_with_url(b).size(), static_cast<size_t>(copies[b]));
  }
}

// The url table of four docs with the urls b, a, c, a, written to path.
MappedFile four_doc_table(const std::string& path) {
  UrlTableWriter writer;
  for (const char* url : {"b", "a", "c", "a"}) writer.add(url);
  writer.write(path);
  return MappedFile(path, FileKind::kUrls);
}

TEST(UrlTable, DamageIsAnIndexError) {
  test::TempDir dir;
  MappedFile file = four_doc_table(dir.str("t.urls"));
  file.verify_checksum();
  UrlTable table(file.payload(), 4, "t.urls");
  std::vector<DocId> docs;
  table.for_each_candidate("a", [&](DocId d) { docs.push_back(d); });
  EXPECT_EQ(docs, (std::vector<DocId>{1, 3}));
  EXPECT_NO_THROW(table.check("t.urls"));
  EXPECT_THROW(UrlTable(file.payload(), 5, "t.urls"), IndexError) << "a table for another doc count";
  EXPECT_THROW(UrlTable(file.payload().first(7), 4, "t.urls"), IndexError) << "a truncated header";

  std::vector<uint8_t> bytes(file.payload().begin(), file.payload().end());
  for (int i = 8; i < 12; ++i) bytes[i] = 0xff;  // the first hash above the second
  EXPECT_THROW(UrlTable(bytes, 4, "t.urls").check("t.urls"), IndexError);
  std::vector<uint8_t> twice(file.payload().begin(), file.payload().end());
  twice[8 + 16] = twice[8 + 20];  // one doc listed twice
  EXPECT_THROW(UrlTable(twice, 4, "t.urls").check("t.urls"), IndexError);
  UrlTableWriter copier;
  EXPECT_THROW(copier.add_all(UrlTable(twice, 4, "t.urls"), "t.urls"), IndexError);
}

TEST(UrlTable, CopiedTableKeepsEachDocsUrl) {
  test::TempDir dir;
  MappedFile file = four_doc_table(dir.str("source.urls"));
  UrlTableWriter writer;
  writer.add("a");
  writer.add_all(UrlTable(file.payload(), 4, "source.urls"), "source.urls");
  writer.add("c");
  writer.write(dir.str("t.urls"));
  MappedFile copied(dir.str("t.urls"), FileKind::kUrls);
  UrlTable table(copied.payload(), 6, "t.urls");
  EXPECT_NO_THROW(table.check("t.urls"));
  for (const auto& [url, want] : std::vector<std::pair<std::string, std::vector<DocId>>>{
           {"a", {0, 2, 4}}, {"b", {1}}, {"c", {3, 5}}}) {
    std::vector<DocId> docs;
    table.for_each_candidate(url, [&](DocId d) { docs.push_back(d); });
    EXPECT_EQ(docs, want) << url;
  }
}

}  // namespace
}  // namespace fts
