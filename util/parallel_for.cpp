#include "util/parallel_for.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace fts {

namespace {

class Pool {
 public:
  static Pool& shared() {
    static Pool pool(std::max(2u, std::thread::hardware_concurrency()) - 1);
    return pool;
  }

  explicit Pool(unsigned threads) {
    for (unsigned t = 0; t < threads; ++t) threads_.emplace_back([this] { run(); });
  }
  ~Pool() {
    {
      std::lock_guard lk(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  size_t size() const { return threads_.size(); }

  void post(std::function<void()> job) {
    {
      std::lock_guard lk(mu_);
      jobs_.push_back(std::move(job));
    }
    cv_.notify_one();
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock lk(mu_);
        cv_.wait(lk, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
      job();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

// One call's tasks. Helpers that start after the caller returned find no
// task left and touch nothing but this state, which they share.
struct Call {
  Call(size_t n, const std::function<void(size_t)>& task) : n(n), task(&task), errors(n) {}
  const size_t n;
  const std::function<void(size_t)>* task;  // valid while a task is unclaimed or running
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::condition_variable cv;
  size_t done = 0;
  std::vector<std::exception_ptr> errors;

  void work() {
    for (size_t i; (i = next.fetch_add(1)) < n;) {
      try {
        (*task)(i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
      std::lock_guard lk(mu);
      if (++done == n) cv.notify_all();
    }
  }
};

}  // namespace

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& task) {
  if (n == 0) return;
  if (threads <= 1 || n == 1) {
    for (size_t i = 0; i < n; ++i) task(i);
    return;
  }
  auto call = std::make_shared<Call>(n, task);
  Pool& pool = Pool::shared();
  const size_t helpers = std::min<size_t>({threads - 1, n - 1, pool.size()});
  for (size_t h = 0; h < helpers; ++h) pool.post([call] { call->work(); });
  call->work();
  std::unique_lock lk(call->mu);
  call->cv.wait(lk, [&] { return call->done == n; });
  for (auto& e : call->errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace fts
