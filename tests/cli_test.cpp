// End-to-end tests of fts-index, fts-search and fts-bench: they run the
// built binaries on small dumps written here, and check exit codes, the
// one-line errors of the contract, and results against a brute-force
// evaluation of the same dump.
#include <gtest/gtest.h>
#include <zlib.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "support/test_support.h"

namespace fts {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;
using test::TempDir;

// ---------------------------------------------------------------- helpers

CommandResult fts_index(const std::vector<std::string>& args, const std::string& in = "") {
  std::vector<std::string> argv{test::tool_path("fts-index")};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run(argv, in);
}
CommandResult fts_search(const std::vector<std::string>& args, const std::string& in = "") {
  std::vector<std::string> argv{test::tool_path("fts-search")};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run(argv, in);
}
CommandResult fts_bench(const std::vector<std::string>& args) {
  std::vector<std::string> argv{test::tool_path("fts-bench")};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run(argv);
}

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// The contract: an error is exactly one line on stderr.
::testing::AssertionResult is_one_line(const std::string& err) {
  if (err.empty()) return ::testing::AssertionFailure() << "stderr is empty";
  if (err.back() != '\n' || std::count(err.begin(), err.end(), '\n') != 1) {
    return ::testing::AssertionFailure() << "stderr is not exactly one line: [" << err << "]";
  }
  return ::testing::AssertionSuccess();
}

std::string describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout: " + r.out.substr(0, 2000) + "\nstderr: " + r.err;
}

// "docs:   N" from fts-index info; -1 when info fails.
long long info_docs(const std::string& dir) {
  CommandResult r = fts_index({"info", dir});
  if (r.exit_code != 0) return -1;
  for (const auto& line : lines_of(r.out)) {
    if (line.rfind("docs:", 0) == 0) return std::stoll(line.substr(5));
  }
  return -1;
}
long long info_field(const std::string& dir, const std::string& key) {
  CommandResult r = fts_index({"info", dir});
  for (const auto& line : lines_of(r.out)) {
    if (line.rfind(key + ":", 0) == 0) return std::stoll(line.substr(key.size() + 1));
  }
  return -1;
}

// fts-search --count; -1 when it fails.
long long search_count(const std::string& dir, const std::string& query) {
  CommandResult r = fts_search({"--index", dir, "--count", "--", query});
  if (r.exit_code != 0) return -1;
  return std::stoll(r.out);
}

void write_gzip(const std::string& path, const std::string& content) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, content.data(), static_cast<unsigned>(content.size())), static_cast<int>(content.size()));
  ASSERT_EQ(gzclose(f), Z_OK);
}

std::string sha1_via_sha1sum(const std::string& data) {
  TempDir tmp;
  test::write_file(tmp.str("ids"), data);
  CommandResult r = test::run({"/usr/bin/sha1sum", tmp.str("ids")});
  if (r.exit_code != 0 || r.out.size() < 40) throw std::runtime_error("sha1sum failed: " + r.err);
  return r.out.substr(0, 40);
}

// The tools' JSON is read back with nlohmann::json: a strict RFC 8259 parser
// that throws on anything malformed, so a test fails on invalid output.
using Json = nlohmann::json;

Json parse_json(const std::string& text) { return Json::parse(text); }

// ------------------------------------------------------------ the test dump

// Every word here is its own Snowball stem, so the brute-force evaluator can
// compare words directly (AnalyzerAgreesWithTheBruteForceVocabulary checks it).
const std::vector<std::string> kVocabulary = {"cat",  "dog",  "fish", "bird", "red", "blue",
                                              "green", "tree", "lake", "moon", "star", "sun"};
const std::set<std::string> kDefaultStopwords = {"a", "and", "be", "have", "i", "in", "of", "that", "the", "to"};

struct TestDoc {
  std::string title, url, abstract;  // title without "Wikipedia: "
};

using test::xml_escape;

std::string doc_xml(const TestDoc& d) {
  return "<doc>\n<title>Wikipedia: " + xml_escape(d.title) + "</title>\n<url>" + xml_escape(d.url) +
         "</url>\n<abstract>" + xml_escape(d.abstract) +
         "</abstract>\n<links>\n<sublink linktype=\"nav\"><anchor>History</anchor><link>" + xml_escape(d.url) +
         "#History</link></sublink>\n</links>\n</doc>\n";
}

std::string dump_xml(const std::vector<TestDoc>& docs, size_t begin = 0, size_t end = SIZE_MAX) {
  std::string out = "<feed>\n";
  for (size_t i = begin; i < std::min(end, docs.size()); ++i) out += doc_xml(docs[i]);
  return out + "</feed>\n";
}

// Hand-written docs first (so phrases and fields surely occur), then random
// ones with capitals, stopwords and punctuation mixed in.
std::vector<TestDoc> make_docs(size_t random_docs, uint32_t seed) {
  std::vector<TestDoc> docs = {
      {"Red fish", "", "The red fish swims in the blue lake."},
      {"Blue moon", "", "A blue moon over the green tree; no red here. Fish & cats?"},
      {"Cat", "", "The cat and the dog, red of fish."},
      {"Dog and cat", "", "Dog. Cat. Bird."},
      {"Lake", "", "red, the fish: a sun star moon"},
      {"Star", "", "Red & fish but not the red-fish of the tree"},
  };
  std::mt19937 rng(seed);
  auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  const std::vector<std::string> fillers = {"the", "of", "and", "a", "The", "OF"};
  const std::vector<std::string> seps = {" ", " ", " ", ", ", ". ", " - ", "; "};
  auto words = [&](size_t lo, size_t hi) {
    size_t n = lo + pick(hi - lo + 1);
    std::string out;
    for (size_t k = 0; k < n; ++k) {
      if (k) out += seps[pick(seps.size())];
      if (pick(5) == 0) out += fillers[pick(fillers.size())] + " ";
      std::string w = kVocabulary[pick(kVocabulary.size())];
      if (pick(4) == 0) w[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
      out += w;
    }
    return out;
  };
  for (size_t i = 0; i < random_docs; ++i) docs.push_back({words(1, 3), "", words(3, 14) + "."});
  for (size_t i = 0; i < docs.size(); ++i) docs[i].url = "https://example.org/wiki/Doc_" + std::to_string(i);
  return docs;
}

bool contains(const std::vector<std::string>& v, const std::string& w) {
  return std::find(v.begin(), v.end(), w) != v.end();
}

// The brute-force side: lowercase ASCII tokens, stopwords removed.
std::vector<std::string> tokens(const std::string& text, const std::set<std::string>& stopwords) {
  std::vector<std::string> out;
  std::string cur;
  for (size_t i = 0; i <= text.size(); ++i) {
    unsigned char c = i < text.size() ? static_cast<unsigned char>(text[i]) : ' ';
    if (std::isalnum(c)) {
      cur.push_back(static_cast<char>(std::tolower(c)));
    } else if (!cur.empty()) {
      // The only inflection in the test docs: a vocabulary word plus "s".
      if (cur.size() > 1 && cur.back() == 's' && contains(kVocabulary, cur.substr(0, cur.size() - 1))) cur.pop_back();
      if (!stopwords.count(cur)) out.push_back(cur);
      cur.clear();
    }
  }
  return out;
}

struct Analyzed {
  std::vector<std::string> title, abstract;
};

bool has_phrase(const std::vector<std::string>& v, const std::vector<std::string>& p) {
  return std::search(v.begin(), v.end(), p.begin(), p.end()) != v.end();
}

using Pred = std::function<bool(const Analyzed&)>;
Pred any(const std::string& w) {
  return [w](const Analyzed& d) { return contains(d.title, w) || contains(d.abstract, w); };
}
Pred title(const std::string& w) {
  return [w](const Analyzed& d) { return contains(d.title, w); };
}
Pred abstract(const std::string& w) {
  return [w](const Analyzed& d) { return contains(d.abstract, w); };
}
Pred phrase(std::vector<std::string> p) {
  return [p](const Analyzed& d) { return has_phrase(d.title, p) || has_phrase(d.abstract, p); };
}
Pred title_phrase(std::vector<std::string> p) {
  return [p](const Analyzed& d) { return has_phrase(d.title, p); };
}
Pred operator&&(Pred a, Pred b) {
  return [a, b](const Analyzed& d) { return a(d) && b(d); };
}
Pred operator||(Pred a, Pred b) {
  return [a, b](const Analyzed& d) { return a(d) || b(d); };
}
Pred operator!(Pred a) {
  return [a](const Analyzed& d) { return !a(d); };
}
Pred nothing() {
  return [](const Analyzed&) { return false; };
}

struct QueryCase {
  std::string text;
  Pred expected;
};

std::vector<QueryCase> query_cases() {
  return {
      {"cat", any("cat")},
      {"CATS", any("cat")},
      {"cat dog", any("cat") && any("dog")},
      {"cat AND dog", any("cat") && any("dog")},
      {"cat and dog", any("cat") && any("dog")},  // lowercase "and" is a stopword, not an operator
      {"cat or dog", any("cat") && any("or") && any("dog")},
      {"cat OR fish", any("cat") || any("fish")},
      {"cat NOT dog", any("cat") && !any("dog")},
      {"cat -dog", any("cat") && !any("dog")},
      {"cat - dog", any("cat") && !any("dog")},
      {"-cat", !any("cat")},
      {"NOT cat", !any("cat")},
      {"cat OR -dog", any("cat") || !any("dog")},
      {"red fish OR blue", (any("red") && any("fish")) || any("blue")},
      {"\"red fish\"", phrase({"red", "fish"})},
      {"\"the red fish\"", phrase({"red", "fish"})},
      {"red-fish", phrase({"red", "fish"})},
      {"\"fish red\"", phrase({"fish", "red"})},
      {"title:cat", title("cat")},
      {"abstract:dog", abstract("dog")},
      {"title:\"blue moon\"", title_phrase({"blue", "moon"})},
      {"(cat OR dog) bird", (any("cat") || any("dog")) && any("bird")},
      {"title:(cat OR dog) -lake", (title("cat") || title("dog")) && !any("lake")},
      {"((red)) AND (green OR (tree -sun))", any("red") && (any("green") || (any("tree") && !any("sun")))},
      {"the", nothing()},
      {"the OF and", nothing()},
      {"NOT the", nothing()},
      {"the OR cat", any("cat")},
      {"title:moon abstract:moon", title("moon") && abstract("moon")},
      {"unicorn", nothing()},
  };
}

// Ascending ids of the docs matching pred.
std::vector<uint32_t> brute_force(const std::vector<TestDoc>& docs, const Pred& pred,
                                  const std::set<std::string>& stopwords = kDefaultStopwords) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < docs.size(); ++i) {
    Analyzed a{tokens(docs[i].title, stopwords), tokens(docs[i].abstract, stopwords)};
    if (pred(a)) out.push_back(static_cast<uint32_t>(i));
  }
  return out;
}

std::vector<uint32_t> hit_ids(const Json& results) {
  std::vector<uint32_t> ids;
  for (const Json& h : results.at("hits")) ids.push_back(h.at("doc").get<uint32_t>());
  return ids;
}

// ------------------------------------------------------------ the fixture

// One index over the test dump, built once for the suite.
class CliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    docs_ = make_docs(80, 12345);
    test::write_file(dump(), dump_xml(docs_));
    build_result_ = fts_index({"build", "--index", index(), dump()});
  }
  static void TearDownTestSuite() { dir_.reset(); }

  void SetUp() override { ASSERT_EQ(build_result_.exit_code, 0) << describe(build_result_); }

  static std::string dump() { return dir_->str("test.xml"); }
  static std::string index() { return dir_->str("index"); }

  // A copy of the suite's index that a test may damage.
  static std::string copy_index(const TempDir& into) {
    std::string copy = into.str("index-copy");
    fs::copy(index(), copy, fs::copy_options::recursive);
    return copy;
  }

  static std::unique_ptr<TempDir> dir_;
  static std::vector<TestDoc> docs_;
  static CommandResult build_result_;
};
std::unique_ptr<TempDir> CliTest::dir_;
std::vector<TestDoc> CliTest::docs_;
CommandResult CliTest::build_result_;

// ------------------------------------------------------------ fts-index build

TEST_F(CliTest, BuildPrintsSummaryWithDocCount) {
  EXPECT_TRUE(is_one_line(build_result_.err)) << build_result_.err;
  EXPECT_NE(build_result_.err.find("fts-index: " + std::to_string(docs_.size()) + " docs"), std::string::npos)
      << build_result_.err;
}

TEST_F(CliTest, InfoReportsExactlyTheDocsOfTheDump) {
  CommandResult r = fts_index({"info", index()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(info_docs(index()), static_cast<long long>(docs_.size())) << r.out;
  EXPECT_NE(r.out.find("stopwords:"), std::string::npos);
}

TEST_F(CliTest, CheckPassesOnAFreshIndex) {
  CommandResult r = fts_index({"check", index()});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("ok"), std::string::npos) << r.out;
}

TEST_F(CliTest, AnalyzerAgreesWithTheBruteForceVocabulary) {
  std::string all;
  for (const auto& w : kVocabulary) all += (all.empty() ? "" : " ") + w;
  CommandResult r = fts_index({"analyze", all});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, all + "\n");
}

TEST_F(CliTest, BuildFromStdinGivesTheSameIndex) {
  TempDir tmp;
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), "-"}, test::read_file(dump()));
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(info_docs(tmp.str("idx")), static_cast<long long>(docs_.size()));
  for (const char* q : {"cat", "\"red fish\"", "-dog", "title:moon"}) {
    EXPECT_EQ(search_count(tmp.str("idx"), q), search_count(index(), q)) << q;
  }
}

TEST_F(CliTest, BuildFromGzipGivesTheSameIndex) {
  TempDir tmp;
  write_gzip(tmp.str("test.xml.gz"), test::read_file(dump()));
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), tmp.str("test.xml.gz")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(info_docs(tmp.str("idx")), static_cast<long long>(docs_.size()));
  EXPECT_EQ(fts_index({"check", tmp.str("idx")}).exit_code, 0);
  for (const char* q : {"cat", "\"red fish\"", "-dog", "title:moon"}) {
    EXPECT_EQ(search_count(tmp.str("idx"), q), search_count(index(), q)) << q;
  }
}

TEST_F(CliTest, SeveralDumpsContinueDocIdsInOrder) {
  TempDir tmp;
  size_t cut1 = 20, cut2 = 50;
  test::write_file(tmp.str("a.xml"), dump_xml(docs_, 0, cut1));
  write_gzip(tmp.str("b.xml.gz"), dump_xml(docs_, cut1, cut2));
  test::write_file(tmp.str("c.xml"), dump_xml(docs_, cut2));
  CommandResult r =
      fts_index({"build", "--index", tmp.str("idx"), tmp.str("a.xml"), tmp.str("b.xml.gz"), tmp.str("c.xml")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(info_docs(tmp.str("idx")), static_cast<long long>(docs_.size()));
  // Same ids, titles and urls as the single-file index.
  const std::vector<std::pair<std::string, Pred>> queries = {
      {"cat", any("cat")}, {"fish OR tree", any("fish") || any("tree")}, {"-moon", !any("moon")}};
  for (const auto& [q, pred] : queries) {
    CommandResult split = fts_search({"--index", tmp.str("idx"), "--json", "--sort", "doc", "--limit", "1000", "--", q});
    ASSERT_EQ(split.exit_code, 0) << describe(split);
    Json j = parse_json(split.out);
    EXPECT_EQ(hit_ids(j), brute_force(docs_, pred)) << q;
    for (const Json& h : j.at("hits")) {
      size_t id = h.at("doc").get<size_t>();
      ASSERT_LT(id, docs_.size());
      EXPECT_EQ(h.at("title").get<std::string>(), docs_[id].title);
      EXPECT_EQ(h.at("url").get<std::string>(), docs_[id].url);
    }
  }
}

TEST_F(CliTest, NoMergeWithSmallRamBudgetAnswersTheSame) {
  TempDir tmp;
  // Enough text that a small budget has to flush more than once.
  std::vector<TestDoc> many = make_docs(20000, 777);
  test::write_file(tmp.str("many.xml"), dump_xml(many));
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), "--no-merge", "--ram-mb", "1", tmp.str("many.xml")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(info_docs(tmp.str("idx")), static_cast<long long>(many.size()));
  EXPECT_GE(info_field(tmp.str("idx"), "segments"), 1);
  EXPECT_EQ(fts_index({"check", tmp.str("idx")}).exit_code, 0);
  for (const auto& q : query_cases()) {
    EXPECT_EQ(search_count(tmp.str("idx"), q.text), static_cast<long long>(brute_force(many, q.expected).size()))
        << q.text;
  }
  // Doc-ordered ids over several segments stay ascending and complete.
  CommandResult all = fts_search({"--index", tmp.str("idx"), "--json", "--sort", "doc", "--limit", "100000", "--", "\"red fish\""});
  ASSERT_EQ(all.exit_code, 0) << describe(all);
  EXPECT_EQ(hit_ids(parse_json(all.out)), brute_force(many, phrase({"red", "fish"})));
  // Segments of 4,000 docs searched on three threads: the same JSON but the
  // time.
  r = fts_index({"build", "--index", tmp.str("small"), "--no-merge", "--max-segment-docs", "4000", tmp.str("many.xml")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  ASSERT_EQ(info_field(tmp.str("small"), "segments"), static_cast<long long>(many.size() + 3999) / 4000);
  for (const auto& q : query_cases()) {
    CommandResult one = fts_search({"--index", tmp.str("small"), "--json", "--total-hits", "exact", "--", q.text});
    CommandResult three =
        fts_search({"--index", tmp.str("small"), "--json", "--total-hits", "exact", "--threads", "3", "--", q.text});
    ASSERT_EQ(three.exit_code, 0) << describe(three);
    Json a = parse_json(one.out), b = parse_json(three.out);
    a.erase("elapsed_ms");
    b.erase("elapsed_ms");
    EXPECT_EQ(b, a) << q.text;
  }
  CommandResult zero = fts_search({"--index", tmp.str("small"), "--threads", "0", "cat"});
  EXPECT_EQ(zero.exit_code, 2) << describe(zero);
}

TEST_F(CliTest, StopwordsNoneIndexesTheStopwords) {
  TempDir tmp;
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), "--stopwords", "none", dump()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(search_count(index(), "the"), 0);
  long long expected = static_cast<long long>(brute_force(docs_, any("the"), {}).size());
  ASSERT_GT(expected, 0);
  EXPECT_EQ(search_count(tmp.str("idx"), "the"), expected);
  EXPECT_EQ(search_count(tmp.str("idx"), "\"fish of\""),
            static_cast<long long>(brute_force(docs_, phrase({"fish", "of"}), {}).size()));
}

TEST_F(CliTest, StopwordsFileReplacesTheList) {
  TempDir tmp;
  test::write_file(tmp.str("stop.txt"), "cat\nmoon\n");
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), "--stopwords", tmp.str("stop.txt"), dump()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::set<std::string> stop = {"cat", "moon"};
  EXPECT_EQ(search_count(tmp.str("idx"), "cat"), 0);
  EXPECT_EQ(search_count(tmp.str("idx"), "the"), static_cast<long long>(brute_force(docs_, any("the"), stop).size()));
  EXPECT_GT(search_count(tmp.str("idx"), "the"), 0);
  // Positions skip the new stopwords: "blue moon over" -> "blue over".
  EXPECT_EQ(search_count(tmp.str("idx"), "\"blue over\""),
            static_cast<long long>(brute_force(docs_, phrase({"blue", "over"}), stop).size()));
  EXPECT_GT(search_count(tmp.str("idx"), "\"blue over\""), 0);
}

TEST_F(CliTest, PairWordsFileNamesTheWordsWhosePairsAreIndexed) {
  TempDir tmp;
  // As the analyzer gives them: "Blue" pairs as "blue"; a stopword has no token.
  test::write_file(tmp.str("pairs.txt"), "# colours\nBlue\nmoon\nthe\n");
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), "--pair-words", tmp.str("pairs.txt"), dump()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = fts_index({"info", tmp.str("idx")});
  EXPECT_NE(r.out.find("pair words:       blue moon\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("word pairs:       "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("word pairs:       0 "), std::string::npos) << r.out;
  EXPECT_GT(search_count(tmp.str("idx"), "\"blue moon\""), 0);
  EXPECT_EQ(search_count(tmp.str("idx"), "\"blue moon\""),
            static_cast<long long>(brute_force(docs_, phrase({"blue", "moon"}), {}).size()));
  test::write_file(tmp.str("bad.txt"), "wi-fi\n");
  r = fts_index({"build", "--index", tmp.str("bad"), "--pair-words", tmp.str("bad.txt"), dump()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"wi-fi\" is more than one word"), std::string::npos) << r.err;
  r = fts_index({"build", "--index", tmp.str("bad"), "--pair-words", tmp.str("absent.txt"), dump()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("absent.txt: cannot read pair words file: No such file or directory"), std::string::npos) << r.err;
}

TEST_F(CliTest, MalformedDocIsSkippedWithItsByteOffsetUnlessStrict) {
  TempDir tmp;
  std::string good = dump_xml(docs_, 0, 3);
  std::string bad_doc = "<doc>\n<title>Wikipedia: Broken</title>\n<url>u</url>\n<abstract>an <b>unclosed tag</abstract>\n</doc>\n";
  size_t feed_end = good.rfind("</feed>");
  std::string text = good.substr(0, feed_end) + bad_doc + doc_xml(docs_[3]) + "</feed>\n";
  size_t offset = feed_end;
  test::write_file(tmp.str("bad.xml"), text);

  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), tmp.str("bad.xml")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::to_string(offset)), std::string::npos) << "offset " << offset << ": " << r.err;
  EXPECT_NE(r.err.find("bad.xml"), std::string::npos) << r.err;
  EXPECT_EQ(info_docs(tmp.str("idx")), 4);
  EXPECT_EQ(search_count(tmp.str("idx"), "broken"), 0);

  CommandResult strict = fts_index({"build", "--index", tmp.str("strict"), "--strict", tmp.str("bad.xml")});
  EXPECT_EQ(strict.exit_code, 1) << describe(strict);
  EXPECT_TRUE(is_one_line(strict.err));
  EXPECT_NE(strict.err.find(std::to_string(offset)), std::string::npos) << strict.err;
  EXPECT_EQ(info_docs(tmp.str("strict")), -1) << "a failed first build must not leave an index";
}

// Each unreadable input fails the build with one line naming the file and
// leaves the previous index in the directory as it was.
TEST_F(CliTest, UnreadableDumpFailsAndKeepsThePreviousIndex) {
  TempDir tmp;
  std::string idx = copy_index(tmp);
  long long cat_before = search_count(idx, "cat");
  ASSERT_GT(cat_before, 0);

  test::write_file(tmp.str("notes.txt"), "These are some notes, not a dump.\nSecond line.\n");
  std::string gz;
  {
    write_gzip(tmp.str("full.xml.gz"), dump_xml(make_docs(3000, 9)));
    gz = test::read_file(tmp.str("full.xml.gz"));
    test::write_file(tmp.str("truncated.xml.gz"), gz.substr(0, gz.size() / 2));
  }
  test::write_file(tmp.str("truncated.xml"), dump_xml(docs_).substr(0, 500));
  test::write_file(tmp.str("garbage.gz"), std::string("\x1f\x8b\x08\x00garbage garbage garbage", 28));

  for (const std::string name : {"missing.xml", "notes.txt", "truncated.xml.gz", "truncated.xml", "garbage.gz"}) {
    SCOPED_TRACE(name);
    CommandResult r = fts_index({"build", "--index", idx, dump(), tmp.str(name)});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_TRUE(is_one_line(r.err));
    EXPECT_NE(r.err.find(name), std::string::npos) << r.err;
    EXPECT_EQ(info_docs(idx), static_cast<long long>(docs_.size()));
    EXPECT_EQ(search_count(idx, "cat"), cat_before);
    EXPECT_EQ(fts_index({"check", idx}).exit_code, 0);
  }
  // And a later build over the same directory still works.
  CommandResult ok = fts_index({"build", "--index", idx, tmp.str("full.xml.gz")});
  EXPECT_EQ(ok.exit_code, 0) << describe(ok);
  EXPECT_EQ(info_docs(idx), 3006);
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {},
           {"frobnicate"},
           {"build", dump()},
           {"build", "--index"},
           {"build", "--index", dir_->str("x")},
           {"build", "--index", dir_->str("x"), "--ram-mb", "lots", dump()},
           {"build", "--index", dir_->str("x"), "--bogus", dump()},
           {"info"},
           {"check"},
           {"info", index(), index()},
       }) {
    std::string joined;
    for (const auto& a : args) joined += a + " ";
    CommandResult r = fts_index(args);
    EXPECT_EQ(r.exit_code, 2) << joined << describe(r);
    EXPECT_FALSE(r.err.empty()) << joined;
  }
  EXPECT_FALSE(fs::exists(dir_->str("x"))) << "a usage error must not create the index directory";
}

// ------------------------------------------------------------ fts-index analyze

TEST(CliAnalyze, PrintsStemmedTermsWithoutStopwords) {
  CommandResult r = fts_index({"analyze", "The Running cats"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "run cat\n");
  CommandResult words = fts_index({"analyze", "The", "Running", "cats"});
  EXPECT_EQ(words.out, "run cat\n");
}

TEST(CliAnalyze, StdinGivesOneLinePerInputLine) {
  CommandResult r = fts_index({"analyze"}, "The Running cats\n\nof the\nDogs, and CATS!\nlast line no newline");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "run cat\n\n\ndog cat\nlast line no newlin\n");
}

TEST(CliAnalyze, StopwordsNoneAndFile) {
  CommandResult none = fts_index({"analyze", "--stopwords", "none", "The Running cats"});
  ASSERT_EQ(none.exit_code, 0) << describe(none);
  EXPECT_EQ(none.out, "the run cat\n");
  TempDir tmp;
  test::write_file(tmp.str("stop.txt"), "cats\nrunning\n");
  CommandResult file = fts_index({"analyze", "--stopwords", tmp.str("stop.txt"), "The Running cats of dogs"});
  ASSERT_EQ(file.exit_code, 0) << describe(file);
  EXPECT_EQ(file.out, "the of dog\n");
  CommandResult missing = fts_index({"analyze", "--stopwords", tmp.str("nope.txt"), "x"});
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_LT(missing.exit_code, 128);
  EXPECT_TRUE(is_one_line(missing.err));
}

// ------------------------------------------------------------ fts-index check

// Damages one copy of the index per case; check must fail with one line
// that names the damaged file, and must never crash.
TEST_F(CliTest, CheckRejectsEveryKindOfDamage) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(index())) {
    std::string name = e.path().filename().string();
    if (name != "LOCK") files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 10u) << "expected MANIFEST and one segment's nine files";
  for (const char* ext : {".post", ".pos", ".dict", ".docs", ".norms", ".bloom", ".urls", ".sim", ".dup"}) {
    EXPECT_EQ(std::count_if(files.begin(), files.end(), [&](const std::string& f) { return f.ends_with(ext); }), 1)
        << ext;
  }

  auto expect_rejected = [&](const std::string& idx, const std::string& file, const std::string& what) {
    SCOPED_TRACE(file + ": " + what);
    CommandResult r = fts_index({"check", idx});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_TRUE(is_one_line(r.err));
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  };

  std::mt19937 rng(4242);
  for (const auto& file : files) {
    size_t size = fs::file_size(fs::path(index()) / file);
    std::vector<size_t> offsets = {0, 4, 8, size / 2, size - 5, size - 1};
    for (int k = 0; k < 6; ++k) offsets.push_back(std::uniform_int_distribution<size_t>(0, size - 1)(rng));
    for (size_t off : offsets) {
      TempDir tmp;
      std::string idx = copy_index(tmp);
      std::string path = idx + "/" + file;
      std::string bytes = test::read_file(path);
      bytes[off] = static_cast<char>(bytes[off] ^ 0x20);
      test::write_file(path, bytes);
      expect_rejected(idx, file, "byte " + std::to_string(off) + " flipped");
    }
    for (size_t keep : {size_t{0}, size_t{3}, size / 2, size - 1}) {
      TempDir tmp;
      std::string idx = copy_index(tmp);
      fs::resize_file(idx + "/" + file, keep);
      expect_rejected(idx, file, "truncated to " + std::to_string(keep));
    }
    {
      TempDir tmp;
      std::string idx = copy_index(tmp);
      fs::remove(idx + "/" + file);
      CommandResult r = fts_index({"check", idx});
      EXPECT_EQ(r.exit_code, 1) << file << " removed: " << describe(r);
      EXPECT_TRUE(is_one_line(r.err));
      if (file != "MANIFEST") {
        EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
      }
    }
  }
  for (const std::string& garbage : {std::string("garbage\n"), std::string(4096, '\0'), std::string(100000, 'x')}) {
    TempDir tmp;
    std::string idx = copy_index(tmp);
    test::write_file(idx + "/MANIFEST", garbage);
    expect_rejected(idx, "MANIFEST", "garbage of " + std::to_string(garbage.size()) + " bytes");
  }
  // A segment file swapped for another kind of file (valid checksum, wrong kind).
  {
    TempDir tmp;
    std::string idx = copy_index(tmp);
    std::string post, dict;
    for (const auto& f : files) {
      if (f.ends_with(".post")) post = f;
      if (f.ends_with(".dict")) dict = f;
    }
    fs::copy_file(idx + "/" + dict, idx + "/" + post, fs::copy_options::overwrite_existing);
    expect_rejected(idx, post, "a dict file in place of the postings");
  }
}

TEST(CliCheck, MissingOrNonIndexDirectory) {
  TempDir tmp;
  for (const std::string& dir : {tmp.str("nope"), tmp.str()}) {
    CommandResult r = fts_index({"check", dir});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_TRUE(is_one_line(r.err));
    EXPECT_NE(r.err.find(dir), std::string::npos) << r.err;
  }
}

// ------------------------------------------------------------ fts-search

TEST_F(CliTest, DefaultOutputStartsWithTheHitCount) {
  CommandResult r = fts_search({"--index", index(), "cat"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  auto lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty());
  long long expected = static_cast<long long>(brute_force(docs_, any("cat")).size());
  EXPECT_EQ(std::stoll(lines[0]), expected) << lines[0];
  EXPECT_NE(r.out.find(docs_[2].title), std::string::npos) << "titles are printed";
}

TEST_F(CliTest, CountMatchesBruteForceForEveryOperator) {
  for (const auto& q : query_cases()) {
    CommandResult r = fts_search({"--index", index(), "--count", "--", q.text});
    ASSERT_EQ(r.exit_code, 0) << q.text << describe(r);
    EXPECT_EQ(r.out, std::to_string(brute_force(docs_, q.expected).size()) + "\n") << q.text;
  }
}

TEST_F(CliTest, DocSortedJsonListsExactlyTheBruteForceIds) {
  for (const auto& q : query_cases()) {
    CommandResult r = fts_search({"--index", index(), "--json", "--sort", "doc", "--limit", "1000", "--", q.text});
    ASSERT_EQ(r.exit_code, 0) << q.text << describe(r);
    Json j = parse_json(r.out);
    std::vector<uint32_t> expected = brute_force(docs_, q.expected);
    EXPECT_EQ(hit_ids(j), expected) << q.text;
    EXPECT_EQ(j.at("total_hits").get<double>(), static_cast<double>(expected.size())) << q.text;
  }
}

TEST_F(CliTest, JsonOutputIsValidWithTheDocumentedFields) {
  CommandResult r = fts_search({"--index", index(), "--json", "--limit", "5", "red OR \"blue moon\""});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  ASSERT_EQ(lines_of(r.out).size(), 1u) << "one JSON document per query, on one line";
  Json j;
  ASSERT_NO_THROW(j = parse_json(r.out)) << r.out;
  ASSERT_TRUE(j.is_object());
  std::vector<uint32_t> expected = brute_force(docs_, any("red") || phrase({"blue", "moon"}));
  EXPECT_EQ(j.at("total_hits").get<double>(), static_cast<double>(expected.size()));
  const auto& hits = j.at("hits");
  EXPECT_EQ(hits.size(), std::min<size_t>(5, expected.size()));
  double previous = 1e300;
  for (const Json& h : hits) {
    for (const char* key : {"doc", "title", "url", "score", "snippet"}) EXPECT_TRUE(h.contains(key)) << key;
    uint32_t id = h.at("doc").get<uint32_t>();
    EXPECT_TRUE(std::binary_search(expected.begin(), expected.end(), id)) << id;
    ASSERT_LT(id, docs_.size());
    EXPECT_EQ(h.at("title").get<std::string>(), docs_[id].title);
    EXPECT_EQ(h.at("url").get<std::string>(), docs_[id].url);
    EXPECT_TRUE(h.at("snippet").is_string());
    EXPECT_GT(h.at("score").get<double>(), 0);
    EXPECT_LE(h.at("score").get<double>(), previous) << "hits come best first";
    previous = h.at("score").get<double>();
  }
  // Special characters in titles and queries survive the JSON escaping.
  CommandResult q = fts_search({"--index", index(), "--json", "\"blue moon\" OR \"tab\there\\\""});
  EXPECT_NE(q.exit_code, 1) << describe(q);
  if (q.exit_code == 0) {
    Json jq = parse_json(q.out);
    EXPECT_EQ(jq.at("query").get<std::string>(), "\"blue moon\" OR \"tab\there\\\"");
  }
}

// --collapse over a dump of copies: the JSON counts before and after and
// each hit's duplicates, the text's "+N similar", and fts-index dupes.
TEST(CliNearDupes, CollapseDupesAndTheirErrors) {
  TempDir tmp;
  const std::string text = "the heron nests in tall reeds beside the slow river and feeds on small fish at dawn";
  std::vector<TestDoc> docs;
  for (int i = 0; i < 5; ++i) docs.push_back({"Grey heron", "https://example.org/h" + std::to_string(i), text});
  docs.push_back({"Kingfisher", "https://example.org/k", "the kingfisher dives from a branch for fish in the river"});
  docs.push_back({"Otter", "https://example.org/o", "an otter swims in the river at night hunting fish and frogs"});
  test::write_file(tmp.str("d.xml"), dump_xml(docs));
  const std::string idx = tmp.str("index");
  ASSERT_EQ(fts_index({"build", "--index", idx, tmp.str("d.xml")}).exit_code, 0);

  CommandResult r = fts_search({"--index", idx, "--json", "--collapse", "fish"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  Json j = parse_json(r.out);
  EXPECT_EQ(j.at("total_hits").get<int>(), 7);
  EXPECT_EQ(j.at("collapsed_hits").get<int>(), 3);
  ASSERT_EQ(j.at("hits").size(), 3u);
  std::vector<int> folded;
  for (const Json& h : j.at("hits")) {
    folded.push_back(h.at("duplicates").get<int>());
    if (h.at("duplicates").get<int>() > 0) {
      EXPECT_EQ(h.at("doc").get<int>(), 0) << "the first copy: equal scores, lowest id";
    }
  }
  std::sort(folded.begin(), folded.end());
  EXPECT_EQ(folded, (std::vector<int>{0, 0, 4}));
  CommandResult plain = fts_search({"--index", idx, "--json", "fish"});
  EXPECT_FALSE(parse_json(plain.out).contains("collapsed_hits"));
  EXPECT_EQ(parse_json(plain.out).at("hits").size(), 7u);

  CommandResult text_out = fts_search({"--index", idx, "--collapse", "fish"});
  ASSERT_EQ(text_out.exit_code, 0) << describe(text_out);
  EXPECT_NE(text_out.out.find("7 hits"), std::string::npos) << text_out.out;
  EXPECT_NE(text_out.out.find("3 after collapsing near-duplicates"), std::string::npos) << text_out.out;
  EXPECT_NE(text_out.out.find("Grey heron  (+4 similar)"), std::string::npos) << text_out.out;
  CommandResult counted = fts_search({"--index", idx, "--json", "--count", "--collapse", "fish"});
  EXPECT_EQ(parse_json(counted.out).at("collapsed_hits").get<int>(), 3);

  CommandResult listed = fts_index({"dupes", "--index", idx});
  ASSERT_EQ(listed.exit_code, 0) << describe(listed);
  EXPECT_NE(listed.out.find("7 docs with fingerprints, 5 in 1 clusters of 2 or more (distance 4, as stored)"),
            std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("cluster 0: 5 docs"), std::string::npos) << listed.out;
  EXPECT_NE(listed.out.find("Grey heron"), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("Otter"), std::string::npos) << "not in a cluster";
  CommandResult measured = fts_index({"dupes", "--index", idx, "--measure", "100"});
  ASSERT_EQ(measured.exit_code, 0) << describe(measured);
  EXPECT_NE(measured.out.find("10 pairs within distance (brute force), 10 found by the banded search (recall 1.0000)"),
            std::string::npos) << measured.out;

  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{
           {"dupes"}, {"dupes", "--index", idx, "--distance", "16"}, {"dupes", "--index", idx, "--limit", "x"},
           {"build", "--index", tmp.str("x"), "--dupe-distance", "16", tmp.str("d.xml")}}) {
    CommandResult e = fts_index(bad);
    EXPECT_EQ(e.exit_code, 2) << describe(e);
    EXPECT_TRUE(is_one_line(e.err)) << e.err;
  }
  ASSERT_EQ(fts_index({"build", "--index", tmp.str("none"), "--no-near-dupes", tmp.str("d.xml")}).exit_code, 0);
  CommandResult none = fts_index({"dupes", "--index", tmp.str("none")});
  EXPECT_EQ(none.exit_code, 1) << describe(none);
  EXPECT_NE(none.err.find("no near-duplicate fingerprints"), std::string::npos) << none.err;
  EXPECT_EQ(parse_json(fts_search({"--index", tmp.str("none"), "--json", "--collapse", "fish"}).out)
                .at("collapsed_hits").get<int>(), 7);
}

TEST_F(CliTest, LimitAndOffsetPageThroughTheFullList) {
  const std::string query = "red OR fish OR cat";
  CommandResult full = fts_search({"--index", index(), "--json", "--limit", "1000", query});
  ASSERT_EQ(full.exit_code, 0) << describe(full);
  std::vector<uint32_t> all = hit_ids(parse_json(full.out));
  ASSERT_EQ(all.size(), brute_force(docs_, any("red") || any("fish") || any("cat")).size());
  ASSERT_GT(all.size(), 10u);
  std::vector<uint32_t> paged;
  for (size_t offset = 0; offset < all.size() + 3; offset += 7) {
    CommandResult page = fts_search(
        {"--index", index(), "--json", "--limit", "7", "--offset", std::to_string(offset), query});
    ASSERT_EQ(page.exit_code, 0) << describe(page);
    Json j = parse_json(page.out);
    EXPECT_EQ(j.at("total_hits").get<double>(), static_cast<double>(all.size())) << "total is independent of paging";
    for (uint32_t id : hit_ids(j)) paged.push_back(id);
  }
  EXPECT_EQ(paged, all);
  CommandResult zero = fts_search({"--index", index(), "--json", "--limit", "0", query});
  ASSERT_EQ(zero.exit_code, 0) << describe(zero);
  EXPECT_TRUE(hit_ids(parse_json(zero.out)).empty());
}

TEST_F(CliTest, TotalHitsThresholdKeepsTheBestHitsAndMayBoundTheCount) {
  for (const std::string query : {"red OR fish OR cat", "cat OR moon OR \"blue moon\" OR red", "cat", "red fish"}) {
    SCOPED_TRACE(query);
    CommandResult exact = fts_search({"--index", index(), "--json", "--total-hits", "exact", "--", query});
    ASSERT_EQ(exact.exit_code, 0) << describe(exact);
    Json e = parse_json(exact.out);
    EXPECT_EQ(e.at("total_hits_relation").get<std::string>(), "eq");
    for (const std::string threshold : {"0", "3", "1000"}) {
      SCOPED_TRACE(threshold);
      CommandResult r = fts_search({"--index", index(), "--json", "--total-hits", threshold, "--", query});
      ASSERT_EQ(r.exit_code, 0) << describe(r);
      Json j = parse_json(r.out);
      EXPECT_EQ(hit_ids(j), hit_ids(e)) << "the same best hits whatever the count policy";
      const std::string relation = j.at("total_hits_relation").get<std::string>();
      ASSERT_TRUE(relation == "eq" || relation == "gte") << relation;
      const double total = e.at("total_hits").get<double>();
      if (relation == "eq") {
        EXPECT_EQ(j.at("total_hits").get<double>(), total);
      } else {
        EXPECT_LT(j.at("total_hits").get<double>(), total);
        EXPECT_GE(j.at("total_hits").get<double>(), std::min(total, std::stod(threshold)));
        CommandResult text = fts_search({"--index", index(), "--total-hits", threshold, "--", query});
        ASSERT_EQ(text.exit_code, 0) << describe(text);
        EXPECT_NE(lines_of(text.out)[0].find("+ hits ("), std::string::npos) << text.out;
      }
    }
  }
  // The default (1000) is above the sample's counts: exact, as --count is.
  CommandResult r = fts_search({"--index", index(), "--json", "red OR fish OR cat"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(parse_json(r.out).at("total_hits_relation").get<std::string>(), "eq");
  for (const std::string bad : {"-1", "many", "", "12x"}) {
    CommandResult b = fts_search({"--index", index(), "--total-hits", bad, "cat"});
    EXPECT_EQ(b.exit_code, 2) << bad << describe(b);
    EXPECT_TRUE(is_one_line(b.err)) << b.err;
  }
}

TEST_F(CliTest, SortDocGivesAscendingIds) {
  CommandResult r = fts_search({"--index", index(), "--json", "--sort", "doc", "--limit", "10", "--offset", "3", "--", "-moon"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::vector<uint32_t> expected = brute_force(docs_, !any("moon"));
  ASSERT_GT(expected.size(), 13u);
  EXPECT_EQ(hit_ids(parse_json(r.out)), std::vector<uint32_t>(expected.begin() + 3, expected.begin() + 13));
  CommandResult bad = fts_search({"--index", index(), "--sort", "title", "cat"});
  EXPECT_EQ(bad.exit_code, 2) << describe(bad);
}

TEST_F(CliTest, StdinAnswersEveryQueryInOrder) {
  std::vector<std::string> queries = {"cat", "dog -cat", "\"red fish\"", "title:moon"};
  std::string in;
  for (const auto& q : queries) in += q + "\n\n";
  CommandResult counts = fts_search({"--index", index(), "--count"}, in);
  ASSERT_EQ(counts.exit_code, 0) << describe(counts);
  std::vector<std::string> expected = {
      std::to_string(brute_force(docs_, any("cat")).size()),
      std::to_string(brute_force(docs_, any("dog") && !any("cat")).size()),
      std::to_string(brute_force(docs_, phrase({"red", "fish"})).size()),
      std::to_string(brute_force(docs_, title("moon")).size()),
  };
  EXPECT_EQ(lines_of(counts.out), expected);

  CommandResult json = fts_search({"--index", index(), "--json"}, in);
  ASSERT_EQ(json.exit_code, 0) << describe(json);
  auto lines = lines_of(json.out);
  ASSERT_EQ(lines.size(), queries.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    Json j = parse_json(lines[i]);
    EXPECT_EQ(j.at("query").get<std::string>(), queries[i]);
    EXPECT_EQ(std::to_string(j.at("total_hits").get<long long>()), expected[i]);
  }

  CommandResult text = fts_search({"--index", index()}, in);
  ASSERT_EQ(text.exit_code, 0) << describe(text);
  size_t blocks = 0;
  for (const auto& line : lines_of(text.out)) {
    if (line.find(" hit") != std::string::npos && std::isdigit(static_cast<unsigned char>(line[0]))) ++blocks;
  }
  EXPECT_EQ(blocks, queries.size()) << text.out;

  // A bad query in the middle: reported, the others still answered, exit 2.
  CommandResult mixed = fts_search({"--index", index(), "--count"}, "cat\n(cat\ntitle:moon\n");
  EXPECT_EQ(mixed.exit_code, 2) << describe(mixed);
  EXPECT_EQ(lines_of(mixed.out), (std::vector<std::string>{expected[0], expected[3]}));
  EXPECT_NE(mixed.err.find("syntax error"), std::string::npos);
}

// "syntax error at position N" and a caret under position N.
void expect_syntax_error(const CommandResult& r, const std::string& query) {
  SCOPED_TRACE(query);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  auto lines = lines_of(r.err);
  ASSERT_GE(lines.size(), 3u) << r.err;
  const std::string marker = "syntax error at position ";
  size_t at = lines[0].find(marker);
  ASSERT_NE(at, std::string::npos) << r.err;
  size_t position = std::stoul(lines[0].substr(at + marker.size()));
  EXPECT_LE(position, query.size());
  size_t caret = lines[2].find('^');
  ASSERT_NE(caret, std::string::npos) << r.err;
  EXPECT_EQ(lines[2].find_first_not_of(' '), caret) << "the caret line holds only the caret";
  size_t indent = lines[1].find(query);
  ASSERT_NE(indent, std::string::npos) << "the query is echoed: " << r.err;
  EXPECT_EQ(caret, indent + position) << r.err;
}

TEST_F(CliTest, EveryInvalidQueryIsASyntaxErrorWithACaret) {
  FTS_REQUIRE_SHARED(invalid_path, "queries/invalid.txt");
  auto invalid = lines_of(test::read_file(invalid_path));
  ASSERT_GT(invalid.size(), 10u);
  for (const auto& q : invalid) {
    expect_syntax_error(fts_search({"--index", index(), "--", q}), q);
    expect_syntax_error(fts_search({"--index", index(), "--json"}, q + "\n"), q);
  }
  std::string all;
  for (const auto& q : invalid) all += q + "\n";
  CommandResult r = fts_search({"--index", index(), "--count"}, all);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  size_t errors = 0;
  for (const auto& line : lines_of(r.err)) errors += line.find("syntax error at position") != std::string::npos;
  EXPECT_EQ(errors, invalid.size());
}

TEST_F(CliTest, HandWrittenSyntaxErrors) {
  for (const std::string q : {"(cat", "cat)", "()", "cat AND", "OR cat", "NOT", "\"cat", "\"  \"", "title:", "cat (OR dog)"}) {
    expect_syntax_error(fts_search({"--index", index(), "--", q}), q);
  }
  // An empty query is an error too.
  CommandResult empty = fts_search({"--index", index(), "--", ""});
  EXPECT_EQ(empty.exit_code, 2) << describe(empty);
}

TEST(CliSearch, MissingIndexExitsOneWithOneLine) {
  TempDir tmp;
  test::write_file(tmp.str("file"), "not an index");
  for (const std::string& dir : {tmp.str("nope"), tmp.str(), tmp.str("file")}) {
    CommandResult r = fts_search({"--index", dir, "cat"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_TRUE(is_one_line(r.err));
    EXPECT_NE(r.err.find(dir), std::string::npos) << r.err;
  }
  CommandResult no_index = fts_search({"cat"});
  EXPECT_EQ(no_index.exit_code, 2) << describe(no_index);
  CommandResult bad_limit = fts_search({"--index", tmp.str(), "--limit", "many", "cat"});
  EXPECT_EQ(bad_limit.exit_code, 2) << describe(bad_limit);
}

TEST_F(CliTest, DamagedIndexExitsOneWithOneLine) {
  std::string dict;
  for (const auto& e : fs::directory_iterator(index())) {
    if (e.path().extension() == ".dict") dict = e.path().filename().string();
  }
  ASSERT_FALSE(dict.empty());
  struct Damage {
    std::string what, file;
    std::function<void(const std::string&)> apply;
  };
  std::vector<Damage> damages = {
      {"garbage manifest", "MANIFEST", [](const std::string& idx) { test::write_file(idx + "/MANIFEST", "junk"); }},
      {"missing dict", dict, [&](const std::string& idx) { fs::remove(idx + "/" + dict); }},
      {"truncated dict", dict, [&](const std::string& idx) { fs::resize_file(idx + "/" + dict, 10); }},
      {"dict header", dict,
       [&](const std::string& idx) {
         std::string b = test::read_file(idx + "/" + dict);
         b[0] ^= 1;
         test::write_file(idx + "/" + dict, b);
       }},
  };
  for (const auto& d : damages) {
    SCOPED_TRACE(d.what);
    TempDir tmp;
    std::string idx = copy_index(tmp);
    d.apply(idx);
    CommandResult r = fts_search({"--index", idx, "cat"});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_TRUE(is_one_line(r.err));
    EXPECT_NE(r.err.find(d.file), std::string::npos) << r.err;
    CommandResult info = fts_index({"info", idx});
    EXPECT_EQ(info.exit_code, 1) << describe(info);
    EXPECT_TRUE(is_one_line(info.err));
  }
}

// ------------------------------------------------------------ fts-bench

TEST_F(CliTest, BenchPrintsThePeersSchema) {
  TempDir tmp;
  // Leading/trailing blanks are trimmed, blank lines skipped.
  const std::vector<std::pair<std::string, Pred>> accepted = {
      {"cat", any("cat")},
      {"cat -dog", any("cat") && !any("dog")},
      {"\"red fish\"", phrase({"red", "fish"})},
      {"the", nothing()},
      {"-moon", !any("moon")},
      {"unicorn", nothing()},
  };
  std::string file = "  cat\t\ncat -dog\n\n\"red fish\"\n(cat OR\nthe\n   \n-moon\nunicorn\n";
  const std::vector<std::string> order = {"cat", "cat -dog", "\"red fish\"", "(cat OR", "the", "-moon", "unicorn"};
  test::write_file(tmp.str("queries.txt"), file);

  for (const std::string mode : {"count", "top10", "top10-fast"}) {
    SCOPED_TRACE(mode);
    CommandResult r = fts_bench({"--index", index(), "--queries", tmp.str("queries.txt"), "--mode", mode, "--reps",
                                 "2", "--warmup", "0", "--warmup-s", "0"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), order.size() + 1) << r.out;
    for (size_t i = 0; i < order.size(); ++i) {
      SCOPED_TRACE(order[i]);
      Json j;
      ASSERT_NO_THROW(j = parse_json(lines[i])) << lines[i];
      EXPECT_EQ(j.at("engine").get<std::string>(), "fts");
      EXPECT_EQ(j.at("mode").get<std::string>(), mode);
      EXPECT_EQ(j.at("query").get<std::string>(), order[i]);
      for (const char* key : {"hits", "latency_us", "error"}) EXPECT_TRUE(j.contains(key)) << key;
      EXPECT_TRUE(j.contains(mode == "count" ? "docs_sha1" : "top"));
      if (order[i] == "(cat OR") {
        EXPECT_TRUE(j.at("error").is_string());
        EXPECT_FALSE(j.at("error").get<std::string>().empty());
        EXPECT_TRUE(j.at("hits").is_null());
        EXPECT_TRUE(j.at("latency_us").is_null());
        EXPECT_TRUE(j.at(mode == "count" ? "docs_sha1" : "top").is_null());
        continue;
      }
      auto it = std::find_if(accepted.begin(), accepted.end(), [&](const auto& a) { return a.first == order[i]; });
      ASSERT_NE(it, accepted.end());
      std::vector<uint32_t> expected = brute_force(docs_, it->second);
      EXPECT_TRUE(j.at("error").is_null());
      if (mode == "top10-fast") {
        // The count may stop early: a lower bound of at least min(10, true).
        ASSERT_TRUE(j.contains("hits_relation"));
        const std::string relation = j.at("hits_relation").get<std::string>();
        EXPECT_TRUE(relation == "eq" || relation == "gte") << relation;
        EXPECT_LE(j.at("hits").get<double>(), static_cast<double>(expected.size()));
        EXPECT_GE(j.at("hits").get<double>(), static_cast<double>(std::min<size_t>(10, expected.size())));
        if (relation == "eq") {
          EXPECT_EQ(j.at("hits").get<double>(), static_cast<double>(expected.size()));
        }
      } else {
        EXPECT_FALSE(j.contains("hits_relation"));
        EXPECT_EQ(j.at("hits").get<double>(), static_cast<double>(expected.size()));
      }
      EXPECT_TRUE(j.at("latency_us").is_number());
      EXPECT_GE(j.at("latency_us").get<double>(), 0);
      if (order[i] == "the") {
        EXPECT_EQ(j.at("latency_us").get<double>(), 0) << "a query that analyzes to nothing is not timed";
      }
      if (mode == "count") {
        std::string joined;
        for (size_t k = 0; k < expected.size(); ++k) joined += (k ? "\n" : "") + std::to_string(expected[k]);
        EXPECT_EQ(j.at("docs_sha1").get<std::string>(), sha1_via_sha1sum(joined));
        if (expected.empty()) {
          EXPECT_EQ(j.at("docs_sha1").get<std::string>(), "da39a3ee5e6b4b0d3255bfef95601890afd80709");
        }
      } else {
        std::vector<uint32_t> top;
        for (const Json& v : j.at("top")) top.push_back(v.get<uint32_t>());
        EXPECT_EQ(top.size(), std::min<size_t>(10, expected.size()));
        for (uint32_t id : top) EXPECT_TRUE(std::binary_search(expected.begin(), expected.end(), id)) << id;
        CommandResult s = fts_search({"--index", index(), "--json", "--limit", "10", "--", order[i]});
        ASSERT_EQ(s.exit_code, 0) << describe(s);
        EXPECT_EQ(top, hit_ids(parse_json(s.out))) << "the same best ten as fts-search";
      }
    }
    Json summary;
    ASSERT_NO_THROW(summary = parse_json(lines.back())) << lines.back();
    EXPECT_EQ(summary.at("engine").get<std::string>(), "fts");
    EXPECT_EQ(summary.at("mode").get<std::string>(), mode);
    EXPECT_EQ(summary.at("queries").get<double>(), static_cast<double>(order.size()));
    EXPECT_EQ(summary.at("errors").get<double>(), 1);
    EXPECT_EQ(summary.at("reps").get<double>(), 2);
    for (const char* key : {"warmup_passes", "total_latency_us", "p50_us", "p95_us"}) {
      EXPECT_TRUE(summary.at(key).is_number()) << key;
    }
    EXPECT_LE(summary.at("p50_us").get<double>(), summary.at("p95_us").get<double>());
  }
}

TEST_F(CliTest, BenchErrors) {
  TempDir tmp;
  test::write_file(tmp.str("q.txt"), "cat\n");
  CommandResult missing_file = fts_bench({"--index", index(), "--queries", tmp.str("nope.txt"), "--reps", "1",
                                          "--warmup", "0", "--warmup-s", "0"});
  EXPECT_EQ(missing_file.exit_code, 1) << describe(missing_file);
  EXPECT_TRUE(is_one_line(missing_file.err));
  EXPECT_NE(missing_file.err.find("nope.txt"), std::string::npos);
  CommandResult missing_index = fts_bench({"--index", tmp.str("nope"), "--queries", tmp.str("q.txt")});
  EXPECT_EQ(missing_index.exit_code, 1) << describe(missing_index);
  EXPECT_TRUE(is_one_line(missing_index.err));
  EXPECT_EQ(fts_bench({"--index", index()}).exit_code, 2);
  EXPECT_EQ(fts_bench({"--index", index(), "--queries", tmp.str("q.txt"), "--mode", "fast"}).exit_code, 2);
  EXPECT_EQ(fts_bench({"--index", index(), "--queries", tmp.str("q.txt"), "--reps", "0"}).exit_code, 2);
}

// ------------------------------------------------------------ real dumps

TEST(CliRealDumps, BundledSample) {
  std::string sample = test::source_path("data/sample.xml");
  if (!fs::exists(sample)) GTEST_SKIP() << "data/sample.xml not present";
  std::string text = test::read_file(sample);
  long long docs = 0;
  for (size_t at = text.find("<doc>"); at != std::string::npos; at = text.find("<doc>", at + 1)) ++docs;
  TempDir tmp;
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), sample});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(info_docs(tmp.str("idx")), docs);
  EXPECT_EQ(fts_index({"check", tmp.str("idx")}).exit_code, 0);
  EXPECT_GT(search_count(tmp.str("idx"), "cat"), 0);
  EXPECT_EQ(search_count(tmp.str("idx"), "-cat") + search_count(tmp.str("idx"), "cat"), docs);
}

TEST(CliRealDumps, JargonFile) {
  FTS_REQUIRE_SHARED(jargon, "corpus/jargon.xml.gz");
  TempDir tmp;
  CommandResult r = fts_index({"build", "--index", tmp.str("idx"), jargon});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.err.find("2307 docs"), std::string::npos) << r.err;
  EXPECT_EQ(info_docs(tmp.str("idx")), 2307);
  CommandResult check = fts_index({"check", tmp.str("idx")});
  EXPECT_EQ(check.exit_code, 0) << describe(check);
  long long hacker = search_count(tmp.str("idx"), "hacker");
  EXPECT_GT(hacker, 0);
  EXPECT_EQ(search_count(tmp.str("idx"), "-hacker"), 2307 - hacker);
}

}  // namespace
}  // namespace fts
