// Fault injection against the real fts-index binary, beyond the basic crash
// tests of crash_safety_test.cpp:
//   - SIGKILL at a random moment of each of many builds (FTS_FAULT_KILLS,
//     default 50), each build replacing a committed index with a different
//     one: afterwards the directory must open, pass check() and answer
//     exactly as the old or as the new index, and a final build cleans up
//     every file the killed builds left behind;
//   - a file-size limit (a full disk: EFBIG) at a sweep of sizes, so the
//     failure lands in every phase: a one-line error, exit 1, the previous
//     index untouched;
//   - missing directories, an index directory that is a file, a read-only
//     index (searching needs no write access);
//   - an index replaced over and over while other processes search it and
//     while an already-open Index keeps answering: every answer is the old
//     or the new count, never an error.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/fts.h"
#include "index/format/manifest.h"
#include "support/test_support.h"

namespace fts {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

const std::vector<std::string> kQueries = {"cat", "red fish", "\"red fish\" OR moon", "-cat", "title:stone -river"};

// A dump of n docs over a small vocabulary; seed changes every doc, so two
// dumps give different answers to kQueries.
std::string make_dump(size_t n, uint32_t seed) {
  static const char* words[] = {"cat",  "dog",   "red",    "fish",   "blue",  "moon",   "tree",  "lake",
                                "river", "town", "castle", "market", "bread", "winter", "north", "silver",
                                "stone", "song", "garden", "bridge", "ship",  "harbor", "glass", "engine"};
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> word(0, std::size(words) - 1);
  std::uniform_int_distribution<int> len(5, 80);
  std::string out = "<feed>\n";
  for (size_t i = 0; i < n; ++i) {
    out += "<doc><title>Wikipedia: ";
    out += words[word(rng)];
    out += " " + std::to_string(i) + "</title><url>https://example.org/" + std::to_string(i) + "</url><abstract>";
    for (int k = len(rng); k > 0; --k) out += std::string(words[word(rng)]) + (k > 1 ? " " : "");
    out += "</abstract><links></links></doc>\n";
  }
  return out + "</feed>\n";
}

using Counts = std::vector<uint64_t>;

// Opens, verifies and queries an index; throws IndexError when it is broken.
Counts open_check_count(const std::string& dir) {
  Index index = Index::open(dir);
  fts::InternalAccess::reader(index).check();
  Counts out;
  for (const auto& q : kQueries) out.push_back(index.count(q));
  return out;
}

// A child process whose stdout and stderr come back through pipes (not
// files: RLIMIT_FSIZE would cut those too).
struct Child {
  pid_t pid = -1;
  int out_fd = -1, err_fd = -1;
};

// fork + exec with a hook run in the child before exec (limits, signals,
// uid). Pipes are close-on-exec so that children spawned by other threads
// never hold our ends open.
Child spawn(const std::vector<std::string>& argv, const std::function<void()>& before_exec = {}) {
  // Everything the child needs is allocated before fork: other threads may
  // hold the allocator's locks at that moment.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0) _exit(126);
    dup2(null, 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    if (before_exec) before_exec();
    execv(args[0], args.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  return {pid, out[0], err[0]};
}

struct Outcome {
  int exit_code;  // 128 + signal when killed
  std::string out, err;
};

// Reads both pipes to their end, then reaps the child.
Outcome finish(const Child& child) {
  Outcome r{-1, "", ""};
  pollfd fds[2] = {{child.out_fd, POLLIN, 0}, {child.err_fd, POLLIN, 0}};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !fds[i].revents) continue;
      ssize_t got = read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

Outcome run_tool(const std::vector<std::string>& argv, const std::function<void()>& before_exec = {}) {
  return finish(spawn(argv, before_exec));
}

std::vector<std::string> build_argv(const std::string& dir, const std::string& dump) {
  // A 1 MB budget: several segment flushes and a merge, so kills and write
  // failures land in every phase of a build.
  return {test::tool_path("fts-index"), "build", "--index", dir, "--ram-mb", "1", dump};
}

bool one_line(const std::string& err) { return !err.empty() && std::count(err.begin(), err.end(), '\n') == 1; }

// Every file of the directory is the manifest, the lock or a file of a live
// segment: nothing a failed or killed build left behind.
std::vector<std::string> stray_files(const std::string& dir) {
  std::set<std::string> live = {kManifestName, "LOCK"};
  for (const auto& seg : read_manifest(dir).segments)
    for (const char* ext : {"post", "pos", "dict", "docs", "norms", "bloom", "urls", "sim", "dup"}) live.insert(seg.name + "." + ext);
  std::vector<std::string> stray;
  for (const auto& e : fs::directory_iterator(dir))
    if (!live.count(e.path().filename().string())) stray.push_back(e.path().filename().string());
  return stray;
}

class FaultInjection : public ::testing::Test {
 protected:
  void SetUp() override {
    dumps_[0] = tmp_.str("a.xml");
    dumps_[1] = tmp_.str("b.xml");
    test::write_file(dumps_[0], make_dump(3000, 1));
    test::write_file(dumps_[1], make_dump(6000, 2));
    for (int i = 0; i < 2; ++i) {
      const std::string ref = tmp_.str("ref" + std::to_string(i));
      Outcome r = run_tool(build_argv(ref, dumps_[i]));
      ASSERT_EQ(r.exit_code, 0) << r.err;
      expected_[i] = open_check_count(ref);
    }
    ASSERT_NE(expected_[0], expected_[1]) << "the two dumps must answer differently";
  }

  test::TempDir tmp_;
  std::string dumps_[2];
  Counts expected_[2];
};

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

TEST_F(FaultInjection, SigkillAtRandomMomentsLeavesOldOrNewIndex) {
  const int kills = env_int("FTS_FAULT_KILLS", 50);
  const std::string dir = tmp_.str("index");
  ASSERT_EQ(run_tool(build_argv(dir, dumps_[0])).exit_code, 0);
  int state = 0;  // which dump the committed index holds

  // How long an unharmed build takes, to spread the kills over all of it.
  auto t0 = Clock::now();
  ASSERT_EQ(run_tool(build_argv(tmp_.str("timing"), dumps_[1])).exit_code, 0);
  const double build_us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();

  std::mt19937 rng(20240611);
  std::uniform_real_distribution<double> when(0.0, 1.15);
  int kept_old = 0, got_new = 0, finished_first = 0;
  for (int i = 0; i < kills; ++i) {
    const int next = 1 - state;
    Child child = spawn(build_argv(dir, dumps_[next]));
    std::this_thread::sleep_for(std::chrono::microseconds(static_cast<int64_t>(when(rng) * build_us)));
    kill(child.pid, SIGKILL);
    Outcome r = finish(child);
    if (r.exit_code == 0) ++finished_first;
    else ASSERT_EQ(r.exit_code, 128 + SIGKILL) << "run " << i << ": " << r.err;

    Counts now;
    try {
      now = open_check_count(dir);
    } catch (const std::exception& e) {
      FAIL() << "run " << i << ": the index no longer opens or checks after a kill: " << e.what();
    }
    if (now == expected_[next]) {
      state = next;
      ++got_new;
    } else {
      ASSERT_EQ(now, expected_[state]) << "run " << i << ": answers are neither the old nor the new index's";
      ++kept_old;
    }
  }
  RecordProperty("kills", kills);
  RecordProperty("kept_old", kept_old);
  RecordProperty("got_new", got_new);
  std::printf("%d kills: %d left the old index, %d the new one (%d builds finished before the kill)\n", kills,
              kept_old, got_new, finished_first);
  EXPECT_GT(kept_old, 0) << "no kill landed inside a build: the test is not testing anything";

  // A clean build afterwards commits and removes what the killed ones left.
  Outcome r = run_tool(build_argv(dir, dumps_[1 - state]));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(open_check_count(dir), expected_[1 - state]);
  EXPECT_EQ(stray_files(dir), std::vector<std::string>{});
}

TEST_F(FaultInjection, FileSizeLimitSweepGivesOneLineErrorAndKeepsIndex) {
  const std::string dir = tmp_.str("index");
  ASSERT_EQ(run_tool(build_argv(dir, dumps_[0])).exit_code, 0);
  // From "no byte can be written" to "almost the whole new index fits".
  int failed = 0;
  for (rlim_t limit : {rlim_t{0}, rlim_t{1}, rlim_t{100}, rlim_t{4} << 10, rlim_t{64} << 10, rlim_t{256} << 10,
                       rlim_t{512} << 10, rlim_t{1} << 20, rlim_t{2} << 20}) {
    Outcome r = run_tool(build_argv(dir, dumps_[1]), [limit] {
      signal(SIGXFSZ, SIG_IGN);  // as on a full disk: write() fails instead of a signal
      rlimit rl{limit, limit};
      setrlimit(RLIMIT_FSIZE, &rl);
    });
    if (r.exit_code == 0) {  // the limit was large enough after all: start over from the old index
      EXPECT_EQ(open_check_count(dir), expected_[1]);
      ASSERT_EQ(run_tool(build_argv(dir, dumps_[0])).exit_code, 0);
      continue;
    }
    ++failed;
    EXPECT_EQ(r.exit_code, 1) << "limit " << limit << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << "limit " << limit << ": " << r.err;
    EXPECT_NE(r.err.find("index"), std::string::npos) << "the error should name the file: " << r.err;
    EXPECT_EQ(open_check_count(dir), expected_[0]) << "limit " << limit;
    EXPECT_EQ(stray_files(dir), std::vector<std::string>{}) << "limit " << limit << " left files behind";
  }
  // The same full disk under stderr: the error line cannot be written, the
  // exit code must still say "runtime error" (it was an abort: the failed
  // write of the message threw out of the error handler).
  const std::string err_file = tmp_.str("stderr-on-full-disk.txt");
  Outcome r = run_tool(build_argv(dir, dumps_[1]), [&err_file] {
    signal(SIGXFSZ, SIG_IGN);
    int fd = ::open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) dup2(fd, 2);
    rlimit rl{0, 0};
    setrlimit(RLIMIT_FSIZE, &rl);
  });
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(open_check_count(dir), expected_[0]);
  std::printf("file-size limits: %d builds failed cleanly, previous index intact each time\n", failed);
  EXPECT_GE(failed, 5);
}

TEST_F(FaultInjection, MissingAndWrongDirectoriesAreOneLineErrors) {
  const std::string search = test::tool_path("fts-search");
  for (const std::string& dir : {tmp_.str("does/not/exist"), tmp_.str("a.xml"), tmp_.path().string()}) {
    Outcome r = run_tool({search, "--index", dir, "--count", "cat"});
    EXPECT_EQ(r.exit_code, 1) << dir << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << dir << ": " << r.err;
    r = run_tool({test::tool_path("fts-index"), "check", dir});
    EXPECT_EQ(r.exit_code, 1) << dir << ": " << r.err;
    EXPECT_TRUE(one_line(r.err)) << dir << ": " << r.err;
  }
  // Building into a path under a regular file cannot work.
  Outcome r = run_tool(build_argv(tmp_.str("a.xml/index"), dumps_[0]));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  // A missing dump leaves no index behind.
  r = run_tool(build_argv(tmp_.str("new"), tmp_.str("missing.xml")));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  EXPECT_FALSE(manifest_exists(tmp_.str("new")));
}

// Searching needs read access only. As root, permission bits do not bind, so
// the search then runs as nobody.
TEST_F(FaultInjection, ReadOnlyIndexStillSearches) {
  const std::string dir = tmp_.str("index");
  ASSERT_EQ(run_tool(build_argv(dir, dumps_[0])).exit_code, 0);
  fs::permissions(tmp_.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                   fs::perms::others_read | fs::perms::others_exec);
  for (const auto& e : fs::directory_iterator(dir))
    fs::permissions(e.path(), fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                           fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  const bool root = geteuid() == 0;
  auto drop = [root] {
    if (root && setgid(65534) == 0 && setuid(65534) != 0) _exit(125);
  };
  Outcome r = run_tool({test::tool_path("fts-search"), "--index", dir, "--count", "--", kQueries[0]}, drop);
  if (r.exit_code == 126 || r.exit_code == 127) GTEST_SKIP() << "cannot run the tool as nobody here";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, std::to_string(expected_[0][0]) + "\n");
  // Building into it fails cleanly and leaves it as it was.
  r = run_tool(build_argv(dir, dumps_[1]), drop);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(one_line(r.err)) << r.err;
  fs::permissions(dir, fs::perms::owner_all);
  EXPECT_EQ(open_check_count(dir), expected_[0]);
}

// An index replaced again and again while other processes search it and an
// already-open Index keeps answering from the files it mapped.
TEST_F(FaultInjection, ReplacedWhileSearched) {
  const std::string dir = tmp_.str("index");
  ASSERT_EQ(run_tool(build_argv(dir, dumps_[0])).exit_code, 0);
  Index held = Index::open(dir);

  const std::set<std::string> allowed = {std::to_string(expected_[0][1]) + "\n",
                                         std::to_string(expected_[1][1]) + "\n"};
  std::atomic<bool> stop{false};
  std::atomic<int> searches{0}, wrong{0};
  std::string first_wrong;
  std::mutex wrong_mutex;
  // Each searcher runs fts-search --count processes back to back, so
  // answers come from many fresh opens racing the commits.
  std::vector<std::thread> searchers;
  for (int t = 0; t < 2; ++t) {
    searchers.emplace_back([&, t] {
      while (!stop) {
        Outcome r = run_tool({test::tool_path("fts-search"), "--index", dir, "--count", "--", kQueries[1]});
        ++searches;
        if (r.exit_code != 0 || !allowed.count(r.out)) {
          std::lock_guard<std::mutex> lock(wrong_mutex);
          if (wrong++ == 0) first_wrong = "searcher " + std::to_string(t) + ": exit " +
                                          std::to_string(r.exit_code) + " out '" + r.out + "' err '" + r.err + "'";
        }
      }
    });
  }
  const int rebuilds = env_int("FTS_FAULT_REPLACEMENTS", 8);
  for (int i = 0; i < rebuilds; ++i) {
    Outcome r = run_tool(build_argv(dir, dumps_[(i + 1) % 2]));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // The held Index still sees the generation it opened.
    EXPECT_EQ(held.count(kQueries[1]), expected_[0][1]);
  }
  // Keep searching a moment after the last commit.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  stop = true;
  for (auto& t : searchers) t.join();
  std::printf("%d rebuilds raced %d searches\n", rebuilds, searches.load());
  EXPECT_EQ(wrong.load(), 0) << first_wrong;
  EXPECT_GT(searches.load(), rebuilds);
  InternalAccess::reader(held).check();
  EXPECT_EQ(open_check_count(dir), expected_[rebuilds % 2]);
}

}  // namespace
}  // namespace fts
