// The distributed build and search against one index built from the same
// dumps, run under mpirun with 1, 2, 3 and 4 ranks (tests/CMakeLists.txt):
// every generated and shared query gives the same ids, counts, top-k
// scores (to the bit) and stored fields, and the sharded index opened in
// one process (Index::open, no MPI) does too. Every check is on rank 0;
// every rank makes the same collective calls in the same order, so a
// failed EXPECT never leaves a rank waiting.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "distributed/distributed_build.h"
#include "distributed/distributed_index.h"
#include "index/format/shard_manifest.h"
#include "query_check.h"
#include "support/test_support.h"

namespace fts {
namespace {

Comm& world() {
  static Comm comm(MPI_COMM_WORLD);
  return comm;
}

// A directory every rank sees at the same path, removed by rank 0.
class SharedTempDir {
 public:
  SharedTempDir() {
    std::string path;
    if (world().is_root()) {
      dir_.emplace();
      path = dir_->str();
    }
    world().broadcast(path);
    path_ = path;
  }
  ~SharedTempDir() { world().barrier(); }  // before rank 0's TempDir goes
  std::string str(const std::string& child) const { return path_ + "/" + child; }

 private:
  std::optional<test::TempDir> dir_;
  std::string path_;
};

std::string dump_of(const std::vector<Document>& docs) {
  std::string out = "<feed>\n";
  for (const Document& d : docs) {
    out += "<doc><title>Wikipedia: " + test::xml_escape(d.title) + "</title><url>" + test::xml_escape(d.url) + "</url><abstract>" +
           test::xml_escape(d.abstract) + "</abstract><links></links></doc>\n";
  }
  return out + "</feed>\n";
}

IndexWriterOptions one_thread() {
  IndexWriterOptions o;
  o.threads = 1;
  return o;
}

// Rank 0: one index of all the dumps, as fts-index build makes it.
std::optional<Index> single_index(const std::string& dir, const std::vector<std::string>& dumps) {
  std::optional<Index> index;
  world().agree([&] {
    if (!world().is_root()) return;
    IndexWriterOptions o = one_thread();
    o.mode = IndexWriterOptions::Mode::kReplace;
    IndexWriter writer(dir, o);
    for (const auto& d : dumps) add_dump(writer, d);
    writer.commit();
    index = Index::open(dir);
  });
  return index;
}

// exact_total: the exact count, when a total-hits threshold let both
// stop counting early. Each rank then counts up to the threshold, as each
// segment does: the lower bounds may differ, not the hits.
void expect_same_hits(const Results& want, const Results& got, const std::string& what,
                      std::optional<uint64_t> exact_total = std::nullopt) {
  if (exact_total && got.total_hits_relation == Results::Relation::kAtLeast) {
    EXPECT_LE(got.total_hits, *exact_total) << what;
    EXPECT_GE(got.total_hits, std::min<uint64_t>(*exact_total, 10)) << what;
  } else {
    EXPECT_EQ(exact_total.value_or(want.total_hits), got.total_hits) << what;
  }
  if (!exact_total) {
    EXPECT_EQ(want.total_hits_relation, got.total_hits_relation) << what;
  }
  EXPECT_EQ(want.collapsed_hits, got.collapsed_hits) << what;
  ASSERT_EQ(want.hits.size(), got.hits.size()) << what;
  for (size_t i = 0; i < want.hits.size(); ++i) {
    const Hit &a = want.hits[i], &b = got.hits[i];
    EXPECT_EQ(a.doc, b.doc) << what << " rank " << i;
    EXPECT_EQ(a.score, b.score) << what << " rank " << i;  // to the bit
    EXPECT_EQ(a.title, b.title) << what;
    EXPECT_EQ(a.url, b.url) << what;
    EXPECT_EQ(a.snippet, b.snippet) << what;
    EXPECT_EQ(a.highlights.size(), b.highlights.size()) << what;
    EXPECT_EQ(a.duplicates, b.duplicates) << what;
  }
}

// One query every way: top 10 with exact counts, a page sorted by doc id,
// top10-fast's threshold, the count and every match. single: rank 0's
// reference (the one-process index, sharded or not).
void check_query(const DistributedIndex& distributed, const std::optional<Index>& single, const std::string& text,
                 bool collapse = false) {
  std::optional<Query> local, global;
  bool local_fails = false, global_fails = false;
  if (single) {
    try {
      local = single->parse(text);
    } catch (const QuerySyntaxError&) {
      local_fails = true;
    }
  }
  try {
    global = distributed.parse(text);
  } catch (const QuerySyntaxError&) {
    global_fails = true;  // on every rank alike
  }
  if (single) {
    EXPECT_EQ(local_fails, global_fails) << text;
  }
  if (global_fails) return;
  SearchOptions top;
  top.collapse = collapse;
  SearchOptions page = top;
  page.sort = SearchOptions::Sort::kDocId;
  page.offset = 3;
  page.limit = 5;
  SearchOptions fast = top;
  fast.total_hits_threshold = 10;
  fast.stored_fields = false;
  const Results exact = distributed.search(*global, top);
  for (const SearchOptions* o : {&top, &page, &fast}) {
    const Results got = o == &top ? exact : distributed.search(*global, *o);
    if (!single || !local) continue;
    std::optional<uint64_t> exact_total;
    if (o == &fast) exact_total = exact.total_hits;
    expect_same_hits(single->search(*local, *o), got, text, exact_total);
  }
  if (collapse) return;
  const uint64_t count = distributed.count(*global, {});
  const std::vector<DocId> docs = distributed.matching_docs(*global, {});
  if (single && local) {
    EXPECT_EQ(single->count(*local), count) << text;
    EXPECT_EQ(single->matching_docs(*local), docs) << text;
  }
}

class DistributedTest : public ::testing::Test {
 protected:
  // Two plain dumps of generated docs: slices cross the files.
  static std::vector<std::string> generated_dumps(const SharedTempDir& dir) {
    std::vector<std::string> paths = {dir.str("a.xml"), dir.str("b.xml")};
    if (world().is_root()) {
      test::Corpus corpus(17);
      test::write_file(paths[0], dump_of(corpus.documents(700)));
      test::write_file(paths[1], dump_of(corpus.documents(500)));
    }
    world().barrier();
    return paths;
  }
};

TEST_F(DistributedTest, GeneratedQueriesAnswerAsOneIndex) {
  SharedTempDir dir;
  const auto dumps = generated_dumps(dir);
  const DistributedBuildReport report = build_distributed(world(), dir.str("sharded"), dumps, one_thread(), {});
  EXPECT_EQ(report.docs, 1200u);
  const std::optional<Index> single = single_index(dir.str("single"), dumps);
  const DistributedIndex distributed(world(), dir.str("sharded"));
  std::optional<Index> sharded;  // the sharded index in one process
  if (world().is_root()) {
    sharded = Index::open(dir.str("sharded"));
    EXPECT_EQ(sharded->doc_count(), 1200u);
    const ShardManifest m = read_shard_manifest(dir.str("sharded"));
    EXPECT_EQ(m.shards.size(), static_cast<size_t>(world().size()));
    EXPECT_EQ(m.doc_count, 1200u);
  }
  std::mt19937 rng(5);
  test::Corpus words(23);
  for (int i = 0; i < 250; ++i) {
    const std::string text = test::random_query_text(rng, words, 3);
    check_query(distributed, single, text);
    check_query(distributed, sharded, text);
    // Clusters stay within a shard: collapse equals the sharded index's in
    // one process, not a single index's.
    if (i % 5 == 0) check_query(distributed, sharded, text, /*collapse=*/true);
  }
  if (world().is_root()) {
    for (DocId d : {0u, 699u, 700u, 1199u}) {
      EXPECT_EQ(single->document(d).url, sharded->document(d).url) << d;
      EXPECT_EQ(single->document(d).abstract, sharded->document(d).abstract) << d;
    }
  }
}

TEST_F(DistributedTest, SharedQueriesOverSharedCorporaAnswerAsOneIndex) {
  FTS_REQUIRE_SHARED(jargon, "corpus/jargon.xml.gz");
  FTS_REQUIRE_SHARED(gcide, "corpus/gcide.xml.gz");
  FTS_REQUIRE_SHARED(queries, "queries");
  SharedTempDir dir;
  const std::vector<std::string> dumps = {jargon, gcide};
  build_distributed(world(), dir.str("sharded"), dumps, one_thread(), {});
  const std::optional<Index> single = single_index(dir.str("single"), dumps);
  const DistributedIndex distributed(world(), dir.str("sharded"));
  size_t checked = 0;
  for (const char* set : {"and", "or", "not", "mixed", "phrase", "field", "edge", "ambiguous", "invalid",
                          "benchmark-game"}) {
    std::ifstream in(queries + "/" + set + ".txt");
    std::string line;
    for (int n = 0; n < 40 && std::getline(in, line); ++n) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      check_query(distributed, single, line);
      ++checked;
    }
  }
  if (world().is_root()) {
    EXPECT_GT(checked, 300u);
  }
}

TEST_F(DistributedTest, AFailedRankLeavesNoIndexVisible) {
  SharedTempDir dir;
  const auto dumps = generated_dumps(dir);
  build_distributed(world(), dir.str("sharded"), dumps, one_thread(), {});
  // The last doc of the last dump is malformed: under strict, the last rank fails.
  std::vector<std::string> bad = dumps;
  bad[1] = dir.str("bad.xml");
  if (world().is_root()) {
    std::string text = test::read_file(dumps[1]);
    text.insert(text.rfind("</doc>"), "<title>unclosed");
    test::write_file(bad[1], text);
  }
  world().barrier();
  DumpOptions strict;
  strict.strict = true;
  std::string error;
  try {
    build_distributed(world(), dir.str("sharded"), bad, one_thread(), strict);
  } catch (const RankError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("bad.xml"), std::string::npos) << error;
  if (world().size() > 1) {
    EXPECT_NE(error.find("rank " + std::to_string(world().size() - 1)), std::string::npos) << error;
  }
  // The old index is gone as the rebuild started, and the failed one never showed.
  if (world().is_root()) {
    EXPECT_FALSE(shard_manifest_exists(dir.str("sharded")));
    EXPECT_THROW(Index::open(dir.str("sharded")), IndexError);
  }
  error.clear();
  try {
    DistributedIndex unopened(world(), dir.str("sharded"));
  } catch (const RankError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("SHARDS"), std::string::npos) << error;
}

TEST_F(DistributedTest, RanksMustMatchTheShards) {
  if (world().size() == 1) GTEST_SKIP() << "needs 2 or more ranks";
  SharedTempDir dir;
  const auto dumps = generated_dumps(dir);
  // Built by rank 0 alone: one shard.
  MPI_Comm alone;
  MPI_Comm_split(MPI_COMM_WORLD, world().is_root() ? 0 : 1, world().rank(), &alone);
  if (world().is_root()) build_distributed(Comm(alone), dir.str("one"), dumps, one_thread(), {});
  MPI_Comm_free(&alone);
  world().barrier();
  std::string error;
  try {
    DistributedIndex index(world(), dir.str("one"));
  } catch (const RankError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("has 1 shards: run as many ranks"), std::string::npos) << error;
}

}  // namespace
}  // namespace fts

int main(int argc, char** argv) {
  fts::MpiSession mpi(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  if (!fts::world().is_root()) {
    // One report: rank 0's. The others' failures (none are checked there) would repeat it.
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  return RUN_ALL_TESTS();
}
