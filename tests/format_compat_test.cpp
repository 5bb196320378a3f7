// An index written in format 2 (postings without impacts; tests/data/
// format2-index is data/sample.xml five times over, built by fts 2468855)
// still opens and answers exactly as a fresh build of the same dump does,
// pruned top-k included; it takes appends (segments of the current format beside
// the old one), passes check, and a merge rewrites it in the current format.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fts/index.h"
#include "index/format/file_format.h"
#include "index/format/manifest.h"
#include "support/test_support.h"

namespace fts {
namespace {

namespace fs = std::filesystem;
using test::run;
using test::tool_path;

const std::vector<std::string> kQueries = {
    "cat", "wild", "\"wild cat\"", "title:cat", "cat OR family", "cat -wild", "wild OR (cat family)", "-cat"};

void expect_same_answers(const std::string& got_dir, const std::string& want_dir) {
  Index got = Index::open(got_dir), want = Index::open(want_dir);
  ASSERT_EQ(got.doc_count(), want.doc_count());
  for (const auto& q : kQueries) {
    for (uint64_t threshold : {SearchOptions::kExactHitCount, uint64_t{0}}) {
      SearchOptions options{.limit = 20};
      options.total_hits_threshold = threshold;
      Results a = got.search(q, options), b = want.search(q, options);
      EXPECT_EQ(a.total_hits, b.total_hits) << q;
      ASSERT_EQ(a.hits.size(), b.hits.size()) << q;
      for (size_t i = 0; i < a.hits.size(); ++i) {
        EXPECT_EQ(a.hits[i].doc, b.hits[i].doc) << q << " rank " << i;
        EXPECT_EQ(a.hits[i].score, b.hits[i].score) << q << " rank " << i;
      }
    }
  }
}

uint32_t postings_version(const std::string& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".post") return MappedFile(e.path().string(), FileKind::kPostings).version();
  }
  return 0;
}

int tool(const std::vector<std::string>& argv) {
  test::CommandResult r = run(argv);
  EXPECT_EQ(r.exit_code, 0) << argv[1] << ": " << r.err;
  return r.exit_code;
}

TEST(FormatCompat, Format2IndexAnswersLikeAFreshBuildTakesAppendsAndMergesToTheCurrentFormat) {
  test::TempDir dir;
  const std::string old_dir = dir.str("old"), new_dir = dir.str("new");
  fs::copy(test::source_path("tests/data/format2-index"), old_dir);
  ASSERT_EQ(postings_version(old_dir), 2u);
  const std::string sample = test::source_path("data/sample.xml");
  std::vector<std::string> build = {tool_path("fts-index"), "build", "--index", new_dir};
  for (int i = 0; i < 5; ++i) build.push_back(sample);
  ASSERT_EQ(tool(build), 0);
  ASSERT_EQ(postings_version(new_dir), kFormatVersion);
  expect_same_answers(old_dir, new_dir);
  ASSERT_EQ(tool({tool_path("fts-index"), "check", old_dir}), 0);
  {
    // No fingerprints in the old segments: collapsing keeps every hit.
    const Results r = Index::open(old_dir).search("cat", {.collapse = true});
    EXPECT_GT(r.total_hits, 0u);
    EXPECT_EQ(r.collapsed_hits, r.total_hits);
  }

  for (const auto& d : {old_dir, new_dir}) {
    ASSERT_EQ(tool({tool_path("fts-index"), "add", "--index", d, "--no-merge", sample}), 0);
  }
  ASSERT_EQ(tool({tool_path("fts-index"), "check", old_dir}), 0);
  expect_same_answers(old_dir, new_dir);

  // Deletes by url find the docs of the old segments (no url tables: a
  // pass over their doc stores) and of the appended one (its url table).
  const std::string url = "https://en.wikipedia.org/wiki/Wild_cat";
  const uint32_t before = Index::open(old_dir).doc_count();
  for (const auto& d : {old_dir, new_dir}) {
    ASSERT_EQ(tool({tool_path("fts-index"), "delete", "--index", d, "--no-merge", "--url", url}), 0);
  }
  EXPECT_EQ(Index::open(old_dir).doc_count(), before - 6) << "5 copies in the old segments, 1 in the new";
  for (const Hit& h : Index::open(old_dir).search("wild cat", {.limit = 1000}).hits) EXPECT_NE(h.url, url);
  expect_same_answers(old_dir, new_dir);

  for (const auto& d : {old_dir, new_dir}) {
    ASSERT_EQ(tool({tool_path("fts-index"), "merge", "--index", d, "--max-segments", "1"}), 0);
  }
  EXPECT_EQ(postings_version(old_dir), kFormatVersion);
  EXPECT_TRUE(fs::exists(old_dir + "/" + read_manifest(old_dir).segments.at(0).name + ".urls"));
  ASSERT_EQ(tool({tool_path("fts-index"), "check", old_dir}), 0);
  expect_same_answers(old_dir, new_dir);
}

}  // namespace
}  // namespace fts
