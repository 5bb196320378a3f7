#include "serve/metrics.h"

#include <algorithm>
#include <cmath>

namespace fts::serve {

namespace {

constexpr double kBucketsPerDecade = 16;

int bucket_of(double us) {
  if (us < 1) return 0;
  return static_cast<int>(std::log10(us) * kBucketsPerDecade);
}

double upper_edge_ms(int bucket) { return std::pow(10.0, (bucket + 1) / kBucketsPerDecade) / 1000.0; }

}  // namespace

void Metrics::record(unsigned status, double ms) {
  requests_.fetch_add(1, std::memory_order_relaxed);
  by_class_[std::min(status / 100, 5u)].fetch_add(1, std::memory_order_relaxed);
  const double us = std::max(ms * 1000.0, 0.0);
  buckets_[std::clamp(bucket_of(us), 0, kBuckets - 1)].fetch_add(1, std::memory_order_relaxed);
  const auto whole_ns = static_cast<uint64_t>(us * 1000.0);
  uint64_t seen = max_ns_.load(std::memory_order_relaxed);
  while (whole_ns > seen && !max_ns_.compare_exchange_weak(seen, whole_ns, std::memory_order_relaxed)) {
  }
}

LatencySummary Metrics::latency() const {
  std::array<uint64_t, kBuckets> counts;
  LatencySummary s;
  for (int b = 0; b < kBuckets; ++b) s.count += counts[b] = buckets_[b].load(std::memory_order_relaxed);
  s.max_ms = static_cast<double>(max_ns_.load(std::memory_order_relaxed)) / 1e6;
  if (s.count == 0) return s;
  auto percentile = [&](double p) {
    const auto rank = static_cast<uint64_t>(std::ceil(p * static_cast<double>(s.count)));
    uint64_t seen = 0;
    for (int b = 0; b < kBuckets; ++b) {
      seen += counts[b];
      if (seen >= rank) return std::min(upper_edge_ms(b), s.max_ms);
    }
    return s.max_ms;
  };
  s.p50_ms = percentile(0.50);
  s.p90_ms = percentile(0.90);
  s.p99_ms = percentile(0.99);
  return s;
}

}  // namespace fts::serve
