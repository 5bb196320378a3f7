// A sharded index (index/format/shard_manifest.h) opened in one process,
// without MPI: shards written here by hand as fts-index build --distributed
// writes them. It answers as one index of all the docs, to the bit; writers
// refuse its directory; a shard's own commits show on reopen; damage is an
// IndexError naming the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "engine/fts.h"
#include "index/format/shard_manifest.h"
#include "query_check.h"
#include "support/test_support.h"

namespace fts {
namespace {

using test::TempDir;

IndexWriterOptions one_thread() {
  IndexWriterOptions o;
  o.threads = 1;
  o.mode = IndexWriterOptions::Mode::kReplace;
  return o;
}

// docs cut at the given points into DIR/shard-0.., and SHARDS over them.
void write_sharded(const std::string& dir, const std::vector<Document>& docs, const std::vector<size_t>& cuts) {
  ShardManifest m;
  size_t from = 0;
  for (size_t r = 0; r <= cuts.size(); ++r) {
    const size_t to = r < cuts.size() ? cuts[r] : docs.size();
    IndexWriter w(dir + "/" + shard_name(static_cast<unsigned>(r)), one_thread());
    for (size_t d = from; d < to; ++d) w.add(docs[d]);
    w.commit();
    m.shards.push_back({shard_name(static_cast<unsigned>(r)), static_cast<DocId>(from), static_cast<uint32_t>(to - from)});
    from = to;
  }
  m.doc_count = docs.size();
  write_shard_manifest(dir, m);
}

Index single_of(const std::string& dir, const std::vector<Document>& docs) {
  IndexWriter w(dir, one_thread());
  for (const auto& d : docs) w.add(d);
  w.commit();
  return Index::open(dir);
}

class ShardedIndex : public ::testing::Test {
 protected:
  void SetUp() override {
    docs_ = test::Corpus(3).documents(900);
    write_sharded(dir_.str("sharded"), docs_, {250, 251, 700});  // a shard of one doc among them
  }
  TempDir dir_;
  std::vector<Document> docs_;
};

TEST_F(ShardedIndex, AnswersAsOneIndexToTheBit) {
  const Index single = single_of(dir_.str("single"), docs_);
  const Index sharded = Index::open(dir_.str("sharded"));
  EXPECT_EQ(sharded.doc_count(), 900u);
  std::mt19937 rng(11);
  test::Corpus words(12);
  for (int i = 0; i < 300; ++i) {
    const std::string text = test::random_query_text(rng, words, 3);
    const Results a = single.search(text, {.limit = 20}), b = sharded.search(text, {.limit = 20});
    EXPECT_EQ(a.total_hits, b.total_hits) << text;
    ASSERT_EQ(a.hits.size(), b.hits.size()) << text;
    for (size_t k = 0; k < a.hits.size(); ++k) {
      EXPECT_EQ(a.hits[k].doc, b.hits[k].doc) << text;
      EXPECT_EQ(a.hits[k].score, b.hits[k].score) << text << " at " << k;  // to the bit
      EXPECT_EQ(a.hits[k].url, b.hits[k].url) << text;
    }
    EXPECT_EQ(single.matching_docs(single.parse(text)), sharded.matching_docs(sharded.parse(text))) << text;
  }
  for (DocId d : {0u, 249u, 250u, 251u, 699u, 700u, 899u}) EXPECT_EQ(sharded.document(d).url, docs_[d].url) << d;
  EXPECT_THROW(sharded.document(900), ArgumentError);
}

TEST_F(ShardedIndex, WritersRefuseItsDirectory) {
  try {
    IndexWriter w(dir_.str("sharded"));
    FAIL() << "a writer opened a sharded index";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("sharded index"), std::string::npos) << e.what();
  }
  EXPECT_EQ(Index::open(dir_.str("sharded")).doc_count(), 900u);
}

TEST_F(ShardedIndex, ReopenSeesAShardsCommit) {
  const Index before = Index::open(dir_.str("sharded"));
  EXPECT_EQ(before.reopen().generation(), before.generation());  // nothing changed
  {
    IndexWriter w(dir_.str("sharded") + "/shard-2");
    w.delete_doc(5);  // the shard's local id 5: global 256
    w.commit();
  }
  const Index after = before.reopen();
  EXPECT_GT(after.generation(), before.generation());
  EXPECT_EQ(after.doc_count(), 899u);
  EXPECT_EQ(before.doc_count(), 900u);  // its own snapshot
  EXPECT_THROW(after.document(256), ArgumentError);
  EXPECT_EQ(after.document(257).url, docs_[257].url);
}

TEST_F(ShardedIndex, AShardGrownIntoTheNextIsAnError) {
  {
    IndexWriter w(dir_.str("sharded") + "/shard-0");  // appends: ids 250.. would collide with shard-1's
    w.add(docs_[0]);
    w.commit();
  }
  try {
    Index::open(dir_.str("sharded"));
    FAIL() << "overlapping shards opened";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("inside the shard before it"), std::string::npos) << e.what();
  }
}

TEST_F(ShardedIndex, DamagedShardsFileIsAnIndexError) {
  const std::string path = shard_manifest_path(dir_.str("sharded"));
  std::string bytes = test::read_file(path);
  bytes[20] ^= 0x40;
  test::write_file(path, bytes);
  try {
    Index::open(dir_.str("sharded"));
    FAIL() << "a damaged SHARDS opened";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("SHARDS"), std::string::npos) << e.what();
  }
  std::filesystem::resize_file(path, 10);
  EXPECT_THROW(Index::open(dir_.str("sharded")), IndexError);
}

TEST(ShardManifest, RoundTripsAndRefusesBadRanges) {
  TempDir dir;
  ShardManifest m;
  m.shards = {{"shard-0", 0, 10}, {"shard-1", 10, 5}};
  m.doc_count = 15;
  m.total_length = {1, 2, 3};
  write_shard_manifest(dir.str(), m);
  const ShardManifest back = read_shard_manifest(dir.str());
  ASSERT_EQ(back.shards.size(), 2u);
  EXPECT_EQ(back.shards[1].name, "shard-1");
  EXPECT_EQ(back.shards[1].base, 10u);
  EXPECT_EQ(back.shards[1].doc_count, 5u);
  EXPECT_EQ(back.total_length[2], 3u);
  m.shards[1].base = 9;  // overlaps shard-0
  write_shard_manifest(dir.str(), m);
  EXPECT_THROW(read_shard_manifest(dir.str()), IndexError);
  m.shards[1].base = 10;
  m.doc_count = 16;  // not the shards' sum
  write_shard_manifest(dir.str(), m);
  EXPECT_THROW(read_shard_manifest(dir.str()), IndexError);
}

}  // namespace
}  // namespace fts
