#include "query/interrupt.h"

#include <string>

#include "fts/errors.h"

namespace fts {

Interrupt::Interrupt(std::chrono::milliseconds budget, const std::atomic<bool>* cancel)
    : budget_(budget),
      deadline_(budget.count() > 0 ? Clock::now() + budget : Clock::time_point::max()),
      cancel_(cancel),
      armed_(budget.count() > 0 || cancel != nullptr) {}

void Interrupt::poll() {
  ticks_ = 0;
  if (!armed_) return;
  if (cancel_ && cancel_->load(std::memory_order_relaxed)) throw CancelledError("search", "cancelled");
  if (Clock::now() >= deadline_) {
    throw TimeoutError("search", "time budget of " + std::to_string(budget_.count()) + " ms exceeded");
  }
}

}  // namespace fts
