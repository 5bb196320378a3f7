// The layout of a segment's norms file: per doc the analyzed length of each
// field, which BM25 reads for every scored hit.
//
// Payload: u32 docs | u64 total length of kAny, kTitle, kAbstract | (format
// 4 on) u32 shortest length of each | docs x (u16 title, u16 abstract),
// saturated at 65535 | (format 5 on) docs x u8: the kAny length, or
// kLongAnyLength for that and longer (then read title + abstract).
//
// Why a byte column beside the pairs: unfielded terms, nearly every scored
// hit, read kAny alone, and a byte a doc touches a quarter of the cache lines
// and pages the pairs do. Scoring the hits of a frequent term jumps through
// the norms; at 6,000,000 docs `electric (electric OR grid OR stability)`
// (62,087 hits, top 10) spent most of its time waiting on the pairs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace fts {

inline constexpr size_t kNormsHeaderBytes = 4 + 3 * 8 + 3 * 4;
inline constexpr size_t kNormsHeaderBytesBefore4 = 4 + 3 * 8;
inline constexpr uint32_t kFirstVersionWithAnyColumn = 5;
inline constexpr uint8_t kLongAnyLength = 255;

inline uint8_t any_length_byte(uint16_t title, uint16_t abstract) {
  return static_cast<uint8_t>(std::min<uint32_t>(uint32_t{title} + abstract, kLongAnyLength));
}

// What a pass over a segment's norms finds.
struct NormsScan {
  uint32_t shortest[3] = {0, 0, 0};  // of kAny, kTitle, kAbstract (0 without docs)
  uint32_t first_wrong_byte = UINT32_MAX;  // the first doc whose byte disagrees with its pair
};
// pairs: docs x (u16 title, u16 abstract); any_column: docs bytes or null.
NormsScan scan_norms(const uint8_t* pairs, const uint8_t* any_column, uint32_t docs);

}  // namespace fts
