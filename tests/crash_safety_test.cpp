// Crash safety of fts-index build, with the real binary: SIGKILL at random
// moments, a file-size limit (a full disk), and directories it cannot
// write. Whatever happens, the index directory must hold either the old or
// the new index, complete and verified, never a mix or a wreck.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "support/test_support.h"

namespace fts {
namespace {

namespace fs = std::filesystem;
using test::CommandResult;
using test::TempDir;

const char* kQuery = "cat OR \"red fish\"";

CommandResult fts_index(const std::vector<std::string>& args) {
  std::vector<std::string> argv{test::tool_path("fts-index")};
  argv.insert(argv.end(), args.begin(), args.end());
  return test::run(argv);
}

std::string describe(const CommandResult& r) {
  return "exit " + std::to_string(r.exit_code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

long long info_docs(const std::string& dir) {
  CommandResult r = fts_index({"info", dir});
  if (r.exit_code != 0) return -1;
  std::istringstream in(r.out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("docs:", 0) == 0) return std::stoll(line.substr(5));
  }
  return -1;
}

long long search_count(const std::string& dir, const std::string& query) {
  CommandResult r = test::run({test::tool_path("fts-search"), "--index", dir, "--count", "--", query});
  if (r.exit_code != 0) return -1;
  return std::stoll(r.out);
}

bool is_one_line(const std::string& err) {
  return !err.empty() && err.back() == '\n' && std::count(err.begin(), err.end(), '\n') == 1;
}

// A dump of n docs; words drawn from a small vocabulary so the query hits.
std::string make_dump(size_t n, uint32_t seed) {
  static const char* words[] = {"cat",   "dog",  "red",    "fish",   "blue",  "moon",   "tree",  "lake",
                                "river", "town", "castle", "market", "bread", "winter", "north", "silver",
                                "stone", "song", "garden", "bridge", "ship",  "harbor", "glass", "engine"};
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> word(0, std::size(words) - 1);
  std::uniform_int_distribution<int> len(5, 60);
  std::string out = "<feed>\n";
  for (size_t i = 0; i < n; ++i) {
    out += "<doc>\n<title>Wikipedia: ";
    out += words[word(rng)];
    out += " " + std::to_string(i) + "</title>\n<url>https://example.org/wiki/" + std::to_string(i) +
           "</url>\n<abstract>";
    int k = len(rng);
    for (int j = 0; j < k; ++j) {
      out += words[word(rng)];
      // Unique-ish tokens grow the dictionary so the inverter fills up.
      if (j % 7 == 0) out += " w" + std::to_string(rng() % 500000);
      out += j + 1 < k ? " " : ".";
    }
    out += "</abstract>\n</doc>\n";
  }
  return out + "</feed>\n";
}

pid_t spawn(const std::vector<std::string>& argv, rlim_t file_size_limit = RLIM_INFINITY, int stderr_fd = -1,
            int close_fd = -1) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  if (close_fd >= 0) ::close(close_fd);
  int null = ::open("/dev/null", O_RDWR);
  dup2(null, 0);
  dup2(null, 1);
  dup2(stderr_fd >= 0 ? stderr_fd : null, 2);
  if (file_size_limit != RLIM_INFINITY) {
    rlimit lim{file_size_limit, file_size_limit};
    setrlimit(RLIMIT_FSIZE, &lim);
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}

// The files of a cleanly committed single-segment index.
::testing::AssertionResult holds_only_one_clean_segment(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string listing;
  for (const auto& n : names) listing += n + " ";
  std::set<std::string> segments;
  for (const auto& n : names) {
    if (n == "MANIFEST" || n == "LOCK") continue;
    size_t dot = n.rfind('.');
    std::string ext = dot == std::string::npos ? "" : n.substr(dot + 1);
    bool known = n.starts_with("seg-") && (ext == "post" || ext == "pos" || ext == "dict" || ext == "docs" || ext == "norms" || ext == "bloom" || ext == "urls" || ext == "sim" || ext == "dup");
    if (!known) return ::testing::AssertionFailure() << "stray file " << n << " in: " << listing;
    segments.insert(n.substr(0, dot));
  }
  if (names.size() != 11 || segments.size() != 1) {
    return ::testing::AssertionFailure() << "expected MANIFEST, LOCK and one segment's 9 files: " << listing;
  }
  return ::testing::AssertionSuccess();
}

// Waits until process pid holds a flock (listed in /proc/locks).
bool wait_for_flock(pid_t pid) {
  std::string needle = " " + std::to_string(pid) + " ";
  for (int i = 0; i < 2000; ++i) {
    std::istringstream locks(test::read_file("/proc/locks"));
    std::string line;
    while (std::getline(locks, line)) {
      if (line.find("FLOCK") != std::string::npos && line.find(needle) != std::string::npos) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The dumps, index A and the measurements of a build of the bigger dump are
// made once; each test starts from its own copy of index A.
class CrashSafetyTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    suite_ = std::make_unique<TempDir>();
    small_dump_ = suite_->str("small.xml");
    big_dump_ = suite_->str("bigger.xml");
    test::write_file(small_dump_, make_dump(kSmallDocs, 1));
    test::write_file(big_dump_, make_dump(kBigDocs, 2));
    a_build_ = fts_index({"build", "--index", suite_->str("A"), small_dump_});
    a_count_ = search_count(suite_->str("A"), kQuery);
    // The bigger build: its query count, duration and largest file.
    std::string b = suite_->str("B");
    auto start = std::chrono::steady_clock::now();
    b_build_ = fts_index({"build", "--index", b, "--ram-mb", "1", big_dump_});
    big_build_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    b_docs_ = info_docs(b);
    b_count_ = search_count(b, kQuery);
    if (b_build_.exit_code == 0) {
      for (const auto& e : fs::directory_iterator(b)) largest_file_ = std::max<uint64_t>(largest_file_, e.file_size());
    }
  }
  static void TearDownTestSuite() { suite_.reset(); }

  void SetUp() override {
    ASSERT_EQ(a_build_.exit_code, 0) << describe(a_build_);
    ASSERT_EQ(b_build_.exit_code, 0) << describe(b_build_);
    ASSERT_GT(a_count_, 0);
    ASSERT_EQ(b_docs_, static_cast<long long>(kBigDocs));
    ASSERT_GT(b_count_, a_count_);
    index_ = tmp_.str("index");
    fs::copy(suite_->str("A"), index_);
    expect_index_a("the copy of A");
  }

  // The index answers exactly as index A does.
  void expect_index_a(const std::string& context) {
    SCOPED_TRACE(context);
    CommandResult check = fts_index({"check", index_});
    EXPECT_EQ(check.exit_code, 0) << describe(check);
    EXPECT_EQ(info_docs(index_), static_cast<long long>(kSmallDocs));
    EXPECT_EQ(search_count(index_, kQuery), a_count_);
  }

  // Small enough to build in a moment; big enough that a 16 MB inverter
  // budget (the floor of --ram-mb) flushes twice and the commit merges.
  static constexpr size_t kSmallDocs = 300, kBigDocs = 18000;
  static inline std::unique_ptr<TempDir> suite_;
  static inline std::string small_dump_, big_dump_;
  static inline CommandResult a_build_, b_build_;
  static inline long long a_count_ = 0, b_count_ = 0, b_docs_ = 0;
  static inline double big_build_s_ = 0;
  static inline uint64_t largest_file_ = 0;

  TempDir tmp_;
  std::string index_;
};

TEST_F(CrashSafetyTest, SigkillAtAnyMomentLeavesTheOldOrTheNewIndex) {
  const int iterations = 20;
  // Stratified delays over 0..1.2x the build time so that every phase
  // (reading, flushing, merging, committing, after the commit) is hit.
  std::random_device rd;
  unsigned seed = rd();
  std::mt19937 rng(seed);
  SCOPED_TRACE("seed " + std::to_string(seed) + ", build time " + std::to_string(big_build_s_) + " s");
  int saw_old = 0, saw_new = 0;
  for (int i = 0; i < iterations; ++i) {
    double fraction = (i + std::uniform_real_distribution<double>(0, 1)(rng)) / iterations;
    auto delay = std::chrono::duration<double>(fraction * 1.2 * big_build_s_);
    SCOPED_TRACE("iteration " + std::to_string(i) + ", kill after " + std::to_string(delay.count()) + " s");

    pid_t pid = spawn({test::tool_path("fts-index"), "build", "--index", index_, "--ram-mb", "1", big_dump_});
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (WIFEXITED(status)) {
      ASSERT_EQ(WEXITSTATUS(status), 0) << "a build that was not killed must succeed";
    }

    CommandResult check = fts_index({"check", index_});
    ASSERT_EQ(check.exit_code, 0) << describe(check);
    long long docs = info_docs(index_);
    long long count = search_count(index_, kQuery);
    if (docs == static_cast<long long>(kSmallDocs)) {
      ++saw_old;
      EXPECT_EQ(count, a_count_);
    } else {
      ASSERT_EQ(docs, static_cast<long long>(kBigDocs)) << "neither the old nor the new index";
      ++saw_new;
      EXPECT_EQ(count, b_count_);
      // Back to A, so the next kill again interrupts a real replacement.
      CommandResult back = fts_index({"build", "--index", index_, small_dump_});
      ASSERT_EQ(back.exit_code, 0) << describe(back);
      EXPECT_TRUE(holds_only_one_clean_segment(index_));
      expect_index_a("after rebuilding A");
    }
  }
  std::cout << "[ info     ] build " << big_build_s_ << " s; kills that left the old index: " << saw_old
            << ", the new one: " << saw_new << "\n";
  // With delays up to 1.2x the build time, some early kills must have hit.
  EXPECT_GT(saw_old, 0);

  // No stale lock; stale temporary and unreferenced files cleaned up.
  CommandResult final_build = fts_index({"build", "--index", index_, "--ram-mb", "1", big_dump_});
  ASSERT_EQ(final_build.exit_code, 0) << describe(final_build);
  EXPECT_EQ(info_docs(index_), static_cast<long long>(kBigDocs));
  EXPECT_EQ(search_count(index_, kQuery), b_count_);
  EXPECT_EQ(fts_index({"check", index_}).exit_code, 0);
  EXPECT_TRUE(holds_only_one_clean_segment(index_));
}

TEST_F(CrashSafetyTest, FullDiskFailsCleanlyAndKeepsTheOldIndex) {
  ASSERT_GT(largest_file_, 8192u);
  for (rlim_t limit : {rlim_t{1}, rlim_t{4096}, static_cast<rlim_t>(largest_file_ / 2), static_cast<rlim_t>(largest_file_ - 1)}) {
    SCOPED_TRACE("file size limit " + std::to_string(limit));
    // stderr through a pipe: a file would itself be cut by the limit.
    int err_pipe[2];
    ASSERT_EQ(::pipe(err_pipe), 0);
    pid_t pid = spawn({test::tool_path("fts-index"), "build", "--index", index_, "--ram-mb", "1", big_dump_}, limit,
                      err_pipe[1], err_pipe[0]);
    ::close(err_pipe[1]);
    std::string err;
    char buf[4096];
    for (ssize_t got; (got = ::read(err_pipe[0], buf, sizeof buf)) > 0;) err.append(buf, static_cast<size_t>(got));
    ::close(err_pipe[0]);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 1) << err;
    EXPECT_TRUE(is_one_line(err)) << err;
    EXPECT_NE(err.find(index_), std::string::npos) << "the error names the file: " << err;
    expect_index_a("after a failed build");
  }
  // Space again: the build succeeds and leaves no debris of the failures.
  CommandResult ok = fts_index({"build", "--index", index_, "--ram-mb", "1", big_dump_});
  ASSERT_EQ(ok.exit_code, 0) << describe(ok);
  EXPECT_EQ(search_count(index_, kQuery), b_count_);
  EXPECT_TRUE(holds_only_one_clean_segment(index_));
}

TEST_F(CrashSafetyTest, ReadOnlyDirectoryFailsWithOneLine) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  ASSERT_EQ(::chmod(index_.c_str(), 0555), 0);
  CommandResult r = fts_index({"build", "--index", index_, small_dump_});
  ::chmod(index_.c_str(), 0755);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(is_one_line(r.err)) << r.err;
  EXPECT_NE(r.err.find(index_), std::string::npos) << r.err;
  expect_index_a("after a read-only directory");
}

TEST_F(CrashSafetyTest, IndexPathUnderARegularFileFailsWithOneLine) {
  std::string file = tmp_.str("plain-file");
  test::write_file(file, "x");
  for (const std::string& dir : {file + "/index", file}) {
    CommandResult r = fts_index({"build", "--index", dir, small_dump_});
    EXPECT_EQ(r.exit_code, 1) << describe(r);
    EXPECT_TRUE(is_one_line(r.err)) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  }
  EXPECT_EQ(test::read_file(file), "x");
}

TEST_F(CrashSafetyTest, ConcurrentBuildIsRefusedWhileTheLockIsHeld) {
  // A build in progress holds DIR/LOCK; a second one must fail at once.
  // The holder reads its dump from a pipe that the test keeps open.
  int status = 0;
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t holder = fork();
  if (holder == 0) {
    dup2(pipe_fds[0], 0);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    int null = ::open("/dev/null", O_RDWR);
    dup2(null, 1);
    dup2(null, 2);
    std::string tool = test::tool_path("fts-index");
    execl(tool.c_str(), tool.c_str(), "build", "--index", index_.c_str(), "-", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(pipe_fds[0]);
  std::string head = "<feed>\n<doc><title>Wikipedia: x</title><url>u</url><abstract>cat</abstract></doc>\n";
  ASSERT_EQ(::write(pipe_fds[1], head.data(), head.size()), static_cast<ssize_t>(head.size()));
  ASSERT_TRUE(wait_for_flock(holder)) << "the holder never took the lock";
  CommandResult second = fts_index({"build", "--index", index_, small_dump_});
  EXPECT_EQ(second.exit_code, 1) << describe(second);
  EXPECT_TRUE(is_one_line(second.err)) << second.err;
  EXPECT_NE(second.err.find(index_), std::string::npos) << second.err;
  // Searching is not blocked by a build.
  EXPECT_EQ(search_count(index_, kQuery), a_count_);
  ::kill(holder, SIGKILL);
  close(pipe_fds[1]);
  ::waitpid(holder, &status, 0);
  // The killed holder's lock is gone with it.
  CommandResult after = fts_index({"build", "--index", index_, small_dump_});
  EXPECT_EQ(after.exit_code, 0) << describe(after);
  expect_index_a("after the lock holder died");
}

}  // namespace
}  // namespace fts
