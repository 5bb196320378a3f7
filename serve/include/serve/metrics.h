// Request counters and a latency histogram for GET /stats. Lock-free and
// allocation-free on the request path: every request adds to atomics.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>

namespace fts::serve {

struct LatencySummary {
  uint64_t count = 0;
  double p50_ms = 0, p90_ms = 0, p99_ms = 0, max_ms = 0;
};

class Metrics {
 public:
  void record(unsigned status, double ms);
  void connection_opened() { open_connections_.fetch_add(1, std::memory_order_relaxed); }
  void connection_closed() { open_connections_.fetch_sub(1, std::memory_order_relaxed); }
  void connection_rejected() { rejected_connections_.fetch_add(1, std::memory_order_relaxed); }

  uint64_t requests() const { return requests_.load(std::memory_order_relaxed); }
  // Requests answered with status class 1xx..5xx (index 1..5).
  uint64_t by_class(unsigned cls) const { return by_class_[cls].load(std::memory_order_relaxed); }
  int64_t open_connections() const { return open_connections_.load(std::memory_order_relaxed); }
  uint64_t rejected_connections() const { return rejected_connections_.load(std::memory_order_relaxed); }
  LatencySummary latency() const;

 private:
  // Buckets of 10^(1/16) from 1 us up: bucket b holds [1us * 10^(b/16), 1us * 10^((b+1)/16)),
  // to 10^(kBuckets/16) us = 1000 s; a percentile is the upper edge of its bucket (within 16%).
  static constexpr int kBuckets = 144;
  std::array<std::atomic<uint64_t>, kBuckets> buckets_{};
  std::atomic<uint64_t> requests_{0};
  std::array<std::atomic<uint64_t>, 6> by_class_{};
  std::atomic<int64_t> open_connections_{0};
  std::atomic<uint64_t> rejected_connections_{0};
  std::atomic<uint64_t> max_ns_{0};
};

}  // namespace fts::serve
