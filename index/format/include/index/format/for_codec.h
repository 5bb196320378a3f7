// Frame-of-Reference block codec: up to 128 uint32 values stored as one
// header byte (the bit width w, 0..32, of the largest value) followed by the
// values bit-packed at w bits each, ceil(n*w/8) bytes. Width 0 stores nothing:
// every value is 0 (for doc deltas minus one: consecutive docs).
//
// Layout of the bits, chosen for decode speed:
// - a full block (n == 128) is "vertical": value i sits in lane i % 4 at slot
//   i / 4; each lane is a little-endian bit stream of 32 slots, and word m of
//   lane j is the 32-bit word 4*m + j. Decoding then unpacks four values per
//   SIMD instruction with shifts and masks known at compile time (one
//   specialised routine per width).
// - a shorter block is one little-endian bit stream (value i at bit i*w),
//   decoded by a generic loop: tails are rare and short.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fts {

inline constexpr uint32_t kForMaxValues = 128;

// Bits needed for the largest of values[0..n) (0 when all are 0).
uint32_t for_bit_width(const uint32_t* values, size_t n);

// Encoded size of n values (n <= 128) at the given bit width, header included.
inline size_t for_encoded_size(uint32_t n, uint32_t width) { return 1 + (size_t(n) * width + 7) / 8; }

// Appends header + packed bits of values[0..n), n in 1..128.
void for_encode(const uint32_t* values, uint32_t n, std::string& out);

// Decodes n values (1..128) from [in, end) into out[0..n). Returns the byte
// after the block, or nullptr if the input is too short or the width byte is
// above 32. Never reads at or beyond end.
const uint8_t* for_decode(const uint8_t* in, const uint8_t* end, uint32_t n, uint32_t* out);

// The byte after an encoded block of n values without decoding it (nullptr
// on damage, as for_decode).
const uint8_t* for_skip(const uint8_t* in, const uint8_t* end, uint32_t n);

}  // namespace fts
