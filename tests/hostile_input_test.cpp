// Hostile input: each ends in a correct answer or a clear error, within
// bounded memory, never a crash or a hang.
//   - a 100 MB abstract (fts-index build; peak RSS measured with wait4)
//   - a 10,000-term query, 10,000 nested parentheses, 10,000 NOTs
//   - NUL bytes and invalid UTF-8 in dumps, queries and JSON output
//   - a dump of 100,000 empty docs
//   - gzip bombs: 1 GB of zeros, 1 GB of whitespace inside a feed, a
//     512 MB abstract (over the reader's 256 MB doc cap)
// Memory bounds (peak RSS of the fts-index child; generous so that the
// sanitizer build passes too) are the constants below; TESTING.md states
// them with the figures of the last run.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/fts.h"
#include "support/test_support.h"

namespace fts {
namespace {

// Sanitizer builds (redzones, quarantine) get twice the room.
#if defined(__SANITIZE_ADDRESS__)
constexpr long kSanitizerFactor = 2;
#else
constexpr long kSanitizerFactor = 1;
#endif
constexpr long kHugeAbstractRssLimitMb = 1536 * kSanitizerFactor;  // 100 MB abstract
constexpr long kStreamingRssLimitMb = 256 * kSanitizerFactor;     // 1 GB of whitespace: the reader streams
constexpr long kOversizedDocRssLimitMb = 1024 * kSanitizerFactor; // a 512 MB doc: buffered up to the 256 MB cap, then skipped

struct Measured {
  int exit_code = -1;
  long peak_rss_mb = 0;
  double seconds = 0;
  std::string err;
};

// Runs a tool with stdout to /dev/null and stderr captured (to a file: the
// outputs here are a few lines); peak RSS from wait4's rusage.
Measured run_measured(const std::vector<std::string>& argv, const test::TempDir& tmp) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const std::string err_path = tmp.str("stderr.txt");
  auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int null = ::open("/dev/null", O_RDWR);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null < 0 || err < 0) _exit(126);
    dup2(null, 0);
    dup2(null, 1);
    dup2(err, 2);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  Measured m;
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.peak_rss_mb = usage.ru_maxrss / 1024;
  m.err = test::read_file(err_path);
  return m;
}

std::vector<std::string> build(const std::string& dir, const std::string& dump) {
  return {test::tool_path("fts-index"), "build", "--index", dir, dump};
}

std::string doc(const std::string& title, const std::string& abstract) {
  return "<doc><title>Wikipedia: " + title + "</title><url>https://example.org/" + title + "</url><abstract>" +
         abstract + "</abstract><links></links></doc>\n";
}

// Writes a gzip file from pieces produced on demand, so a 1 GB stream never
// sits in memory: piece(i) for i = 0, 1, ... until it returns false.
template <class Piece>
void write_gzip(const std::string& path, Piece&& piece) {
  gzFile f = gzopen(path.c_str(), "wb9");
  ASSERT_NE(f, nullptr);
  std::string chunk;
  for (size_t i = 0; piece(i, chunk); ++i) {
    ASSERT_EQ(gzwrite(f, chunk.data(), static_cast<unsigned>(chunk.size())), static_cast<int>(chunk.size()));
  }
  ASSERT_EQ(gzclose(f), Z_OK);
}

// One small index shared by the query tests.
class HostileQueries : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir;
    IndexWriter writer(dir_->str("index"));
    add_dump(writer, test::source_path("data/sample.xml"));
    writer.commit();
    index_ = new Index(Index::open(dir_->str("index")));
  }
  static void TearDownTestSuite() {
    delete index_;
    delete dir_;
  }
  // The count of query, or nullopt for a QuerySyntaxError.
  static std::optional<uint64_t> count_or_syntax_error(const std::string& query) {
    try {
      return index_->count(query);
    } catch (const QuerySyntaxError& e) {
      EXPECT_LE(e.position(), query.size());
      EXPECT_FALSE(std::string(e.what()).empty());
      return std::nullopt;
    }
  }
  static test::TempDir* dir_;
  static Index* index_;
};
test::TempDir* HostileQueries::dir_ = nullptr;
Index* HostileQueries::index_ = nullptr;

const std::vector<std::string> kWords = {"cathedral", "coast", "mill", "river", "choir", "heron", "fair", "square"};

std::string repeat_joined(size_t n, const std::string& sep) {
  std::string q;
  for (size_t i = 0; i < n; ++i) q += (i ? sep : "") + kWords[i % kWords.size()];
  return q;
}

TEST_F(HostileQueries, TenThousandTermQueriesAnswerLikeTheirDistinctTerms) {
  const std::string distinct_or = repeat_joined(kWords.size(), " OR ");
  const std::string distinct_and = repeat_joined(kWords.size(), " ");
  ASSERT_GT(index_->count(distinct_or), 0u);
  EXPECT_EQ(count_or_syntax_error(repeat_joined(10000, " OR ")), index_->count(distinct_or));
  EXPECT_EQ(count_or_syntax_error(repeat_joined(10000, " ")), index_->count(distinct_and));
  EXPECT_EQ(count_or_syntax_error(repeat_joined(10000, " AND ")), index_->count(distinct_and));
  // Ranked, with snippets, too.
  Results r = index_->search(repeat_joined(10000, " OR "), {.limit = 5});
  EXPECT_EQ(r.total_hits, index_->count(distinct_or));
  // 10,000 exclusions of words that are not there exclude nothing.
  std::string excluded = "river";
  for (int i = 0; i < 10000; ++i) excluded += " -zz" + std::to_string(i);
  EXPECT_EQ(count_or_syntax_error(excluded), index_->count("river"));
}

TEST_F(HostileQueries, TenThousandNestedParenthesesAndNots) {
  const std::string open(10000, '('), close(10000, ')');
  EXPECT_EQ(count_or_syntax_error(open + "river" + close), index_->count("river"));
  // Unbalanced either way: a syntax error, not a crash.
  EXPECT_EQ(count_or_syntax_error(open + "river"), std::nullopt);
  EXPECT_EQ(count_or_syntax_error("river" + close), std::nullopt);
  EXPECT_EQ(count_or_syntax_error(open + close), std::nullopt);
  // Nesting that does not collapse: an answer within the depth limit, a
  // clear error beyond it.
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += "(river OR ";
  deep += "coast" + std::string(10000, ')');
  std::optional<uint64_t> got = count_or_syntax_error(deep);
  if (got) {
    EXPECT_EQ(*got, index_->count("river OR coast"));
  }
  std::string nots;
  for (int i = 0; i < 10000; ++i) nots += "NOT ";
  got = count_or_syntax_error(nots + "river");  // an even number: river itself
  if (got) {
    EXPECT_EQ(*got, index_->count("river"));
  }
  got = count_or_syntax_error(std::string(10001, '-') + "river");
  if (got) {
    EXPECT_EQ(*got, index_->count("-river"));
  }
}

TEST_F(HostileQueries, NulBytesAndInvalidUtf8InQueries) {
  using namespace std::string_literals;
  // A NUL or an invalid byte separates tokens like any non-letter: the
  // word becomes a phrase, as wi-fi does.
  EXPECT_EQ(count_or_syntax_error("mill\0river"s), index_->count("\"mill river\""));
  EXPECT_EQ(count_or_syntax_error("mill\xffriver"), index_->count("\"mill river\""));
  EXPECT_EQ(count_or_syntax_error("\xc3"), 0u);
  EXPECT_EQ(count_or_syntax_error("\0"s), 0u);  // nothing but a separator: analyzes to nothing
  for (const std::string& q : {"title:\0"s, "\"\0\""s, "(\xff)"s, "\xed\xa0\x80 OR \xf4\x90\x80\x80"s, "-\0"s})
    (void)count_or_syntax_error(q);
  // The tool reads queries from stdin lines, NULs and all.
  test::CommandResult r = test::run({test::tool_path("fts-search"), "--index", dir_->str("index"), "--count"},
                                    "mill\0river\n\xff\xfe\nriver\n"s);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::to_string(index_->count("\"mill river\"")) + "\n0\n" + std::to_string(index_->count("river")) + "\n");
}

TEST(HostileDumps, NulBytesAndInvalidUtf8InDumps) {
  using namespace std::string_literals;
  test::TempDir tmp;
  const std::string dump = tmp.str("dump.xml");
  test::write_file(dump, "<feed>\n"s + doc("first", "alpha\xff" "beta \xed\xa0\x80gamma \xf8\x88\x80\x80\x80" "delta") +
                             doc("bad \xc3 title", "epsilon") + doc("nul", "zeta\0eta"s) + doc("last", "theta") +
                             "</feed>\n");
  Measured m = run_measured(build(tmp.str("index"), dump), tmp);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  Index index = Index::open(tmp.str("index"));
  fts::InternalAccess::reader(index).check();
  // XML forbids NUL, so the doc holding one may be skipped (with a warning
  // naming it, as any malformed doc); every other doc is intact.
  const bool nul_doc_skipped = index.count("zeta") == 0;
  if (nul_doc_skipped) {
    EXPECT_NE(m.err.find("skipped"), std::string::npos) << m.err;
  }
  ASSERT_EQ(index.doc_count(), nul_doc_skipped ? 3u : 4u);
  for (const char* word : {"alpha", "beta", "gamma", "delta", "epsilon", "theta", "title"})
    EXPECT_EQ(index.count(word), 1u) << word;
  EXPECT_EQ(index.matching_docs(index.parse("theta")), std::vector<DocId>{nul_doc_skipped ? 2u : 3u});
  // JSON output stays valid UTF-8 whatever the stored bytes are.
  test::CommandResult r = test::run({test::tool_path("fts-search"), "--index", tmp.str("index"), "--json", "epsilon OR alpha"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto bytes = reinterpret_cast<const unsigned char*>(r.out.data());
  for (size_t i = 0; i < r.out.size();) {
    char32_t cp = 0;
    size_t n = bytes[i] < 0x80 ? 1 : detail::decode_utf8(bytes + i, bytes + r.out.size(), cp);
    ASSERT_NE(cp, detail::kNotToken) << "invalid UTF-8 at byte " << i << " of " << r.out;
    i += n;
  }
}

TEST(HostileDumps, HundredThousandEmptyDocs) {
  test::TempDir tmp;
  const std::string dump = tmp.str("empty.xml");
  std::string text = "<feed>\n";
  for (int i = 0; i < 100000; ++i)
    text += i % 2 ? "<doc></doc>\n" : "<doc><title></title><url></url><abstract/><links></links></doc>\n";
  test::write_file(dump, text + "</feed>\n");
  Measured m = run_measured(build(tmp.str("index"), dump), tmp);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  Index index = Index::open(tmp.str("index"));
  fts::InternalAccess::reader(index).check();
  EXPECT_EQ(index.doc_count(), 100000u);
  EXPECT_EQ(index.count("-x"), 100000u);
  EXPECT_EQ(index.count("x"), 0u);
  EXPECT_EQ(index.count("x OR y"), 0u);
  EXPECT_EQ(index.count("\"x y\""), 0u);
  Results r = index.search("-x", {.limit = 3, .offset = 99998, .sort = SearchOptions::Sort::kDocId});
  ASSERT_EQ(r.hits.size(), 2u);
  EXPECT_EQ(r.hits[0].doc, 99998u);
  EXPECT_EQ(r.hits[1].doc, 99999u);
  EXPECT_EQ(r.hits[1].title, "");
  r = index.search("-x", {.limit = 5});  // ranked: every score 0, no NaN from empty fields
  for (const Hit& h : r.hits) EXPECT_EQ(h.score, 0.0f);
}

TEST(HostileDumps, HundredMegabyteAbstract) {
  test::TempDir tmp;
  const std::string dump = tmp.str("huge.xml");
  {
    std::FILE* f = std::fopen(dump.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::string head = "<feed>\n" + doc("small", "before the giant") + "<doc><title>Wikipedia: Giant</title><url>u</url><abstract>";
    std::fwrite(head.data(), 1, head.size(), f);
    // 100 MB of words, 1,000 distinct ones so the postings are long.
    std::string block;
    for (int i = 0; i < 1000; ++i) block += "w" + std::to_string(i) + " ";
    size_t written = 0;
    while (written < (size_t{100} << 20)) written += std::fwrite(block.data(), 1, block.size(), f);
    std::string tail = "needle</abstract></doc>\n" + doc("after", "after the giant") + "</feed>\n";
    std::fwrite(tail.data(), 1, tail.size(), f);
    ASSERT_EQ(std::fclose(f), 0);
  }
  Measured m = run_measured(build(tmp.str("index"), dump), tmp);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  std::printf("100 MB abstract: built in %.1f s, peak RSS %ld MB (bound %ld MB)\n", m.seconds, m.peak_rss_mb,
              kHugeAbstractRssLimitMb);
  EXPECT_LT(m.peak_rss_mb, kHugeAbstractRssLimitMb);
  Index index = Index::open(tmp.str("index"));
  EXPECT_EQ(index.doc_count(), 3u);
  EXPECT_EQ(index.matching_docs(index.parse("needle")), std::vector<DocId>{1});
  EXPECT_EQ(index.matching_docs(index.parse("\"w998 w999 needle\"")), std::vector<DocId>{1});
  EXPECT_EQ(index.count("w0"), 1u);
  EXPECT_EQ(index.count("giant"), 3u);
  Results r = index.search("needle", {.limit = 1});
  ASSERT_EQ(r.hits.size(), 1u);
  EXPECT_LE(r.hits[0].snippet.size(), 1000u) << "snippets stay short";
}

TEST(HostileDumps, GzipBombs) {
  test::TempDir tmp;
  // 1 GB of zeros: not a dump. Rejected at its first byte.
  const std::string zeros = tmp.str("zeros.gz");
  write_gzip(zeros, [](size_t i, std::string& chunk) {
    chunk.assign(size_t{1} << 20, '\0');
    return i < 1024;
  });
  Measured m = run_measured(build(tmp.str("zeros-index"), zeros), tmp);
  EXPECT_EQ(m.exit_code, 1) << m.err;
  EXPECT_EQ(std::count(m.err.begin(), m.err.end(), '\n'), 1) << m.err;
  std::printf("gzip bomb, 1 GB of zeros: exit %d in %.1f s, peak RSS %ld MB: %s", m.exit_code, m.seconds,
              m.peak_rss_mb, m.err.c_str());
  EXPECT_LT(m.peak_rss_mb, kStreamingRssLimitMb);

  // 1 GB of whitespace between two docs: a valid dump, read in constant memory.
  const std::string spaces = tmp.str("spaces.gz");
  write_gzip(spaces, [](size_t i, std::string& chunk) {
    if (i == 0) chunk = "<feed>\n" + doc("one", "first doc");
    else if (i <= 1024) chunk.assign(size_t{1} << 20, ' ');
    else if (i == 1025) chunk = doc("two", "second doc") + "</feed>\n";
    return i <= 1025;
  });
  m = run_measured(build(tmp.str("spaces-index"), spaces), tmp);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  std::printf("gzip bomb, 1 GB of whitespace in a feed: %.1f s, peak RSS %ld MB\n", m.seconds, m.peak_rss_mb);
  EXPECT_LT(m.peak_rss_mb, kStreamingRssLimitMb);
  EXPECT_EQ(Index::open(tmp.str("spaces-index")).count("doc"), 2u);

  // A 512 MB abstract: over the reader's 256 MB doc cap, so skipped with a
  // warning (like any malformed doc: the docs after it move up one id), its
  // neighbours kept, memory bounded by the cap.
  const std::string giant = tmp.str("giant.gz");
  write_gzip(giant, [](size_t i, std::string& chunk) {
    if (i == 0) chunk = "<feed>\n" + doc("one", "first doc") + "<doc><title>Wikipedia: Giant</title><abstract>";
    else if (i <= 512) chunk.assign(size_t{1} << 20, 'a');
    else if (i == 513) chunk = "</abstract></doc>\n" + doc("two", "second doc") + "</feed>\n";
    return i <= 513;
  });
  m = run_measured(build(tmp.str("giant-index"), giant), tmp);
  ASSERT_EQ(m.exit_code, 0) << m.err;
  std::printf("gzip bomb, a 512 MB abstract: %.1f s, peak RSS %ld MB: %s", m.seconds, m.peak_rss_mb, m.err.c_str());
  EXPECT_LT(m.peak_rss_mb, kOversizedDocRssLimitMb);
  EXPECT_NE(m.err.find("skipped"), std::string::npos) << m.err;
  Index index = Index::open(tmp.str("giant-index"));
  EXPECT_EQ(index.doc_count(), 2u);
  EXPECT_EQ(index.matching_docs(index.parse("doc")), (std::vector<DocId>{0, 1}));
}

}  // namespace
}  // namespace fts
