// parallel_for: every task runs once, tasks do run at once, the first
// exception reaches the caller after every task ran, and a call from inside
// a task (the pool busy) still finishes.
#include "util/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace fts {
namespace {

TEST(ParallelFor, EveryTaskRunsOnce) {
  for (unsigned threads : {1u, 2u, 4u, 64u}) {
    std::vector<std::atomic<int>> runs(1000);
    parallel_for(runs.size(), threads, [&](size_t i) { ++runs[i]; });
    for (size_t i = 0; i < runs.size(); ++i) ASSERT_EQ(runs[i].load(), 1) << i << ", " << threads << " threads";
  }
  parallel_for(0, 4, [](size_t) { FAIL() << "no task to run"; });
}

TEST(ParallelFor, TwoTasksRunAtOnce) {
  // Each task waits for the other to have started: on one thread the first
  // would wait out its 10 s and report it.
  std::mutex mu;
  std::condition_variable cv;
  int started = 0;
  std::atomic<int> met = 0;
  parallel_for(2, 2, [&](size_t) {
    std::unique_lock lk(mu);
    ++started;
    cv.notify_all();
    if (cv.wait_for(lk, std::chrono::seconds(10), [&] { return started == 2; })) ++met;
  });
  EXPECT_EQ(met.load(), 2);
}

TEST(ParallelFor, TheFirstExceptionIsRethrownAfterEveryTask) {
  std::atomic<int> ran = 0;
  try {
    parallel_for(100, 4, [&](size_t i) {
      ++ran;
      if (i == 7 || i == 50) throw std::runtime_error("task " + std::to_string(i));
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "task 7");
  }
  EXPECT_EQ(ran.load(), 100);
}

TEST(ParallelFor, NestedCallsFinish) {
  std::atomic<int> inner = 0;
  parallel_for(8, 4, [&](size_t) { parallel_for(8, 4, [&](size_t) { ++inner; }); });
  EXPECT_EQ(inner.load(), 64);
}

}  // namespace
}  // namespace fts
