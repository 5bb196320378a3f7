// Stops a search that ran past its time budget or whose cancel flag was set
// (SearchOptions::time_budget, ::cancel). The searcher ticks it once per
// matching doc; every kStride ticks it reads the clock and the flag, so an
// unarmed or a quiet one costs a counter increment.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace fts {

class Interrupt {
 public:
  static constexpr uint32_t kStride = 4096;

  // budget 0 and no flag: never fires.
  Interrupt(std::chrono::milliseconds budget, const std::atomic<bool>* cancel);
  bool armed() const { return armed_; }
  void tick() {
    if (armed_ && ++ticks_ >= kStride) poll();
  }
  // Throws TimeoutError or CancelledError when it fires.
  void poll();

 private:
  using Clock = std::chrono::steady_clock;
  std::chrono::milliseconds budget_;
  Clock::time_point deadline_;
  const std::atomic<bool>* cancel_;
  bool armed_;
  uint32_t ticks_ = 0;
};

}  // namespace fts
