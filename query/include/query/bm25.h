// BM25 (k1 = 1.2, b = 0.75) with index-wide statistics, so a doc scores the
// same whichever segment holds it:
//   idf   = ln(1 + (N - df + 0.5) / (df + 0.5))
//   score = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))
// A phrase weighs the sum of its tokens' idfs with tf = its occurrences.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "index/format/block_impact.h"  // kBm25K1, kBm25B

namespace fts {


inline double bm25_idf(uint64_t doc_count, uint64_t doc_freq) {
  double n = static_cast<double>(doc_count), df = static_cast<double>(doc_freq);
  return std::log(1.0 + (n - df + 0.5) / (df + 0.5));
}

// The query-time constants of one leaf; per doc only tf and length vary.
class Bm25Weight {
 public:
  Bm25Weight() = default;
  Bm25Weight(double idf, double average_length)
      : idf_(idf), avg_inv_(average_length > 0 ? 1.0 / average_length : 1.0) {}

  float score(uint32_t tf, uint32_t length) const {
    double t = tf;
    double norm = kBm25K1 * (1.0 - kBm25B + kBm25B * length * avg_inv_);
    return static_cast<float>(idf_ * t * (kBm25K1 + 1.0) / (t + norm));
  }
  // Above score() of every doc whose length part is at most impact at the
  // reference average length (index/format/block_impact.h), with a margin
  // for float rounding.
  float impact_bound(uint16_t impact, float reference_average) const {
    const double stretch = std::max(1.0, 1.0 / (avg_inv_ * reference_average));
    return static_cast<float>(idf_ * (kBm25K1 + 1.0) * impact_value(impact) * stretch * (1.0 + 1e-6));
  }
  double idf() const { return idf_; }

 private:
  double idf_ = 0;
  double avg_inv_ = 1;
};

}  // namespace fts
