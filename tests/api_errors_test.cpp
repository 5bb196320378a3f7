// The public API's error promise (include/fts/errors.h): whatever goes wrong
// (a damaged index, a full disk, a bad query, a locked index, an unreadable
// dump, a refused option), what crosses the API is an fts::Error of the
// right kind with what() and where() filled, never another exception.
// Only the public header is used, as an embedder would.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "fts/fts.h"
#include "support/test_support.h"

namespace {

namespace fs = std::filesystem;

std::vector<fts::Document> small_corpus(size_t n) {
  static const char* words[] = {"cat", "dog", "red", "fish", "blue", "moon", "tree", "lake", "river", "town"};
  std::mt19937 rng(7);
  std::vector<fts::Document> docs;
  for (size_t i = 0; i < n; ++i) {
    fts::Document d;
    d.title = std::string(words[rng() % 10]) + " " + std::to_string(i);
    d.url = "https://example.org/" + std::to_string(i);
    for (int k = 0; k < 30; ++k) d.abstract += std::string(words[rng() % 10]) + " ";
    docs.push_back(std::move(d));
  }
  return docs;
}

void build(const std::string& dir, size_t n, fts::IndexWriterOptions options = {}) {
  fts::IndexWriter writer(dir, options);
  for (auto& d : small_corpus(n)) writer.add(std::move(d));
  writer.commit();
}

// Runs body; passes when it returns or throws an fts::Error, fails on
// anything else. Returns the error's what() ("" when none was thrown).
std::string only_fts_errors(const std::function<void()>& body) {
  try {
    body();
    return "";
  } catch (const fts::Error& e) {
    EXPECT_FALSE(e.where().empty()) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "non-fts exception crossed the API: " << typeid(e).name() << ": " << e.what();
  } catch (...) {
    ADD_FAILURE() << "non-std exception crossed the API";
  }
  return "";
}

void use_index(const std::string& dir) {
  fts::Index index = fts::Index::open(dir);
  for (const char* q : {"cat", "red fish", "\"red fish\" OR moon", "-cat", "title:town -river"}) {
    index.search(q, {.limit = 20});
    index.search(q, {.limit = 5, .sort = fts::SearchOptions::Sort::kDocId});
    index.count(q);
    index.matching_docs(index.parse(q));
    index.explain(q);
  }
}

TEST(ApiErrors, DamagedIndexFilesGiveOnlyIndexErrors) {
  fts::test::TempDir original;
  build(original.str() + "/ix", 300, {.merge = false, .max_segment_docs = 120});
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(original.str() + "/ix"))
    if (e.path().filename() != "LOCK") files.push_back(e.path());
  ASSERT_GE(files.size(), 6u);
  std::mt19937 rng(11);
  size_t errors = 0, trials = 0;
  for (const auto& file : files) {
    const auto size = fs::file_size(file);
    for (int k = 0; k < 12; ++k) {
      fts::test::TempDir copy;
      fs::copy(original.str() + "/ix", copy.str() + "/ix");
      fs::path damaged = copy.str() + "/ix/" + file.filename().string();
      if (k == 0) {
        fs::resize_file(damaged, size / 2);  // truncated
      } else {
        std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(rng() % size));
        f.put(static_cast<char>(rng() % 256));
      }
      ++trials;
      std::string what = only_fts_errors([&] { use_index(copy.str() + "/ix"); });
      if (!what.empty()) ++errors;
    }
  }
  // Truncation is always caught at open; most flips are too (framing).
  EXPECT_GE(errors, files.size());
  RecordProperty("trials", std::to_string(trials));
}

TEST(ApiErrors, DamagedIndexIsAnIndexErrorNamingTheFile) {
  fts::test::TempDir dir;
  build(dir.str(), 50);
  std::string victim;
  for (const auto& e : fs::directory_iterator(dir.str()))
    if (e.path().extension() == ".dict") victim = e.path().string();
  ASSERT_FALSE(victim.empty());
  fs::resize_file(victim, 10);
  try {
    fts::Index::open(dir.str());
    FAIL() << "a truncated dictionary opened";
  } catch (const fts::IndexError& e) {
    EXPECT_EQ(e.where(), victim);
    EXPECT_EQ(std::string(e.what()).rfind(victim + ": ", 0), 0u) << e.what();
  }
}

TEST(ApiErrors, MissingIndexIsAnIndexError) {
  fts::test::TempDir dir;
  try {
    fts::Index::open(dir.str() + "/nothing-here");
    FAIL();
  } catch (const fts::IndexError& e) {
    EXPECT_EQ(e.where(), dir.str() + "/nothing-here");
  }
}

// A child process under RLIMIT_FSIZE (a full disk: writes fail with EFBIG)
// builds an index; its exit code says which exception reached it.
int build_under_file_size_limit(const std::string& dir, rlim_t limit) {
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    rlimit rl{limit, limit};
    setrlimit(RLIMIT_FSIZE, &rl);
    try {
      build(dir, 2000, {.merge = true, .threads = 1, .max_segment_docs = 500});
      _exit(10);
    } catch (const fts::IoError& e) {
      _exit(e.where().empty() ? 12 : 0);
    } catch (const fts::Error&) {
      _exit(11);
    } catch (...) {
      _exit(13);
    }
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

TEST(ApiErrors, FullDiskIsAnIoErrorAndKeepsThePreviousIndex) {
  fts::test::TempDir dir;
  build(dir.str(), 40);
  const uint64_t before = fts::Index::open(dir.str()).count("cat");
  // The limit falls in the header of the first file, in a flushed segment,
  // and in the merged segment (half its largest file).
  fts::test::TempDir reference;
  build(reference.str(), 2000, {.merge = true, .threads = 1, .max_segment_docs = 500});
  rlim_t largest = 0;
  for (const auto& e : fs::directory_iterator(reference.str())) largest = std::max<rlim_t>(largest, fs::file_size(e.path()));
  for (rlim_t limit : {rlim_t{8}, rlim_t{4096}, largest / 2, largest - 1}) {
    EXPECT_EQ(build_under_file_size_limit(dir.str(), limit), 0)
        << "limit " << limit << " (0 IoError, 10 no error, 11 other fts::Error, 12 IoError without where, 13 other)";
    EXPECT_EQ(fts::Index::open(dir.str()).count("cat"), before);
  }
}

TEST(ApiErrors, BadQueriesAreQuerySyntaxErrorsWithPositions) {
  fts::test::TempDir dir;
  build(dir.str(), 20);
  fts::Index index = fts::Index::open(dir.str());
  const std::pair<const char*, size_t> cases[] = {
      {"", 0}, {"cat AND", 4}, {"\"wild cat", 0}, {"(cat", 0}, {"cat)", 3}, {"title:", 0}, {"()", 0}, {"\"  \"", 0}};
  for (const auto& [query, position] : cases) {
    for (int entry = 0; entry < 4; ++entry) {
      try {
        if (entry == 0) index.parse(query);
        if (entry == 1) index.search(query);
        if (entry == 2) index.count(query);
        if (entry == 3) index.explain(query);
        ADD_FAILURE() << "'" << query << "' parsed";
      } catch (const fts::QuerySyntaxError& e) {
        EXPECT_EQ(e.position(), position) << query;
        EXPECT_EQ(e.where(), "query");
        const fts::Error& base = e;
        EXPECT_STRNE(base.what(), "");
      }
    }
  }
}

TEST(ApiErrors, ASecondWriterGetsALockError) {
  fts::test::TempDir dir;
  fts::IndexWriter first(dir.str());
  try {
    fts::IndexWriter second(dir.str());
    FAIL() << "two writers on one index";
  } catch (const fts::LockError& e) {
    EXPECT_EQ(e.where(), dir.str());
  }
  first.add({.title = "t", .url = "u", .abstract = "a cat"});
  first.commit();  // the failed second writer left the first one intact
  EXPECT_EQ(fts::Index::open(dir.str()).count("cat"), 1u);
}

TEST(ApiErrors, UnwritableDirectoryIsAnIoError) {
  // A path through a regular file fails for anyone (root ignores permissions).
  fts::test::TempDir dir;
  std::ofstream(dir.str() + "/file") << "x";
  try {
    fts::IndexWriter writer(dir.str() + "/file/index");
    FAIL();
  } catch (const fts::IoError& e) {
    EXPECT_EQ(e.where(), dir.str() + "/file/index");
  }
}

TEST(ApiErrors, UnreadableDumpsAreDumpErrors) {
  fts::test::TempDir dir;
  fts::IndexWriter writer(dir.str() + "/ix");
  try {
    fts::add_dump(writer, dir.str() + "/missing.xml");
    FAIL();
  } catch (const fts::DumpError& e) {
    EXPECT_EQ(e.where(), dir.str() + "/missing.xml");
  }
  std::ofstream(dir.str() + "/bad.xml") << "<feed><doc><title>x</title>";
  EXPECT_THROW(fts::add_dump(writer, dir.str() + "/bad.xml"), fts::DumpError);
  std::ofstream(dir.str() + "/strict.xml") << "<feed><doc><title>x</title><oops></doc></feed>";
  std::string warned;
  EXPECT_NO_THROW(fts::add_dump(writer, dir.str() + "/strict.xml", {.warn = [&](const std::string& w) { warned = w; }}));
  EXPECT_THROW(fts::add_dump(writer, dir.str() + "/strict.xml", {.strict = true}), fts::DumpError);
}

TEST(ApiErrors, RefusedOptionsAreArgumentErrors) {
  fts::test::TempDir dir;
  try {
    fts::IndexWriter writer(dir.str(), {.ram_mb = 0});
    FAIL();
  } catch (const fts::ArgumentError& e) {
    EXPECT_EQ(e.where(), "IndexWriterOptions::ram_mb");
  }
  EXPECT_THROW(fts::IndexWriter(dir.str(), {.threads = 0}), fts::ArgumentError);
  {
    fts::IndexWriter writer(dir.str());
    writer.add({.title = "cat"});
    writer.commit();
  }
  fts::Index index = fts::Index::open(dir.str());
  try {
    index.search("cat", {.threads = 0});
    FAIL();
  } catch (const fts::ArgumentError& e) {
    EXPECT_EQ(e.where(), "SearchOptions::threads");
  }
  EXPECT_THROW(index.count("cat", {.threads = 0}), fts::ArgumentError);
  EXPECT_EQ(index.count("cat", {.threads = 4}), 1u);
}

TEST(ApiErrors, UnreadableStopwordFileIsAnIoError) {
  fts::test::TempDir dir;
  EXPECT_THROW(fts::Stopwords::from_file(dir.str() + "/none.txt"), fts::IoError);
  EXPECT_THROW(fts::Stopwords::from_file(dir.str()), fts::IoError);
}

}  // namespace
