// Per-block score bounds in the postings' skip data (format 3), for top-k
// pruning by blocks. BM25's length-dependent part of a doc's score,
//   part = tf / (tf + k1 * (1 - b + b * len / avglen))        (0 < part < 1),
// is stored per block (and for the tail, and the whole term) as its maximum
// over the docs, rounded up to 16 bits and computed at the segment's own
// average length of the field (the reference average, kept beside it). A
// search scores with the index-wide average A instead; a larger average
// only shrinks the length penalty, so the part at A is at most
// max(1, A / reference) times the part at the reference, and the stored
// value still bounds every score of its block:
//   score <= idf * (k1 + 1) * max(1, A / reference) * impact.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "index/format/fields.h"

namespace fts {

inline constexpr double kBm25K1 = 1.2;
inline constexpr double kBm25B = 0.75;

inline double bm25_length_part(double tf, double length, double average) {
  const double avg_inv = average > 0 ? 1.0 / average : 1.0;
  return tf / (tf + kBm25K1 * (1.0 - kBm25B + kBm25B * length * avg_inv));
}

// An upper bound of part in 16 bits (never below it; parts are < 1).
inline uint16_t impact_above(double part) {
  return static_cast<uint16_t>(std::min(65535.0, std::floor(part * 65535.0) + 1.0));
}
inline double impact_value(uint16_t impact) { return impact / 65535.0; }

// The shortest length whose part at freq tf impact_above() maps to at most
// impact, at the given average: a doc of that freq under that impact is at
// least this long (parts fall as lengths grow). Solved for, then checked
// against impact_above itself, so rounding cannot make it too long.
inline uint32_t shortest_length_within(uint16_t impact, uint32_t tf, double average) {
  constexpr uint32_t kLongest = 2 * 65535;  // kAny: title + abstract, each saturated
  if (!(average > 0) || !std::isfinite(average)) return 0;  // a damaged reference: no tighter bound
  const double q = impact_value(impact);
  const double solved = q > 0 ? (tf * (1.0 / q - 1.0) / kBm25K1 - (1.0 - kBm25B)) * average / kBm25B : kLongest;
  auto length = static_cast<uint32_t>(std::clamp(std::floor(solved) - 1.0, 0.0, double(kLongest)));
  while (length < kLongest && impact_above(bm25_length_part(tf, length, average)) > impact) ++length;
  while (length > 0 && impact_above(bm25_length_part(tf, length - 1, average)) <= impact) --length;
  return length;
}

// The field lengths BM25 sees for the docs of a segment being written (as
// .norms stores them: saturated at 65535, kAny = title + abstract) and the
// segment's average per field: what the postings writer needs for impacts.
class DocLengths {
 public:
  // title_abstract: per doc its title and abstract lengths, interleaved.
  explicit DocLengths(std::span<const uint32_t> title_abstract) {
    pairs_.reserve(title_abstract.size());
    uint64_t totals[3] = {0, 0, 0};
    for (size_t i = 0; i + 1 < title_abstract.size(); i += 2) {
      totals[1] += title_abstract[i];
      totals[2] += title_abstract[i + 1];
      pairs_.push_back(static_cast<uint16_t>(std::min<uint32_t>(title_abstract[i], 65535)));
      pairs_.push_back(static_cast<uint16_t>(std::min<uint32_t>(title_abstract[i + 1], 65535)));
    }
    totals[0] = totals[1] + totals[2];
    const size_t docs = pairs_.size() / 2;
    for (int f = 0; f < 3; ++f) average_[f] = docs ? static_cast<float>(double(totals[f]) / double(docs)) : 0.0f;
  }
  uint32_t length(Field field, DocId doc) const {
    const uint32_t title = pairs_[size_t(doc) * 2], abstract = pairs_[size_t(doc) * 2 + 1];
    return field == Field::kTitle ? title : field == Field::kAbstract ? abstract : title + abstract;
  }
  float average(Field field) const { return average_[static_cast<int>(field)]; }
  size_t size() const { return pairs_.size() / 2; }

 private:
  std::vector<uint16_t> pairs_;
  float average_[3] = {0, 0, 0};
};

}  // namespace fts
