// CRC-32C: slicing-by-8 tables, or the SSE4.2 instruction when the CPU has it.
#include "util/crc32c.h"

#include <cstring>
#include <stdexcept>

#include "util/bytes.h"

#if defined(__x86_64__) || defined(__i386__)
#include <nmmintrin.h>
#define FTS_HAVE_SSE42_PATH 1
#endif

namespace fts {
namespace {

constexpr uint32_t kCastagnoli = 0x82F63B78;  // reflected polynomial

// Slicing-by-8 tables: table[k][b] is the CRC of byte b followed by k zeros.
struct CrcTables {
  uint32_t t[8][256];
  constexpr CrcTables() : t{} {
    for (uint32_t b = 0; b < 256; ++b) {
      uint32_t c = b;
      for (int i = 0; i < 8; ++i) c = (c >> 1) ^ ((c & 1) ? kCastagnoli : 0);
      t[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; ++b)
      for (int k = 1; k < 8; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xff];
  }
};
constexpr CrcTables kCrcTables;

#ifdef FTS_HAVE_SSE42_PATH
// The CRC instruction takes three cycles and can start one a cycle: the
// hardware path runs three stripes of kStripe bytes side by side and joins
// them. The register is linear in the data, so the register after stripes
// A B C from r is shift(shift(reg(A, r)) ^ reg(B, 0)) ^ reg(C, 0), where
// shift(x) is the register after kStripe zero bytes from x, a linear map
// kept as four byte tables. (Verifying the 24 MB of norms of a 6M-doc
// segment at open took 18% of a cold query.)
constexpr size_t kStripe = 4096;

struct ShiftTables {
  uint32_t t[4][256];
  constexpr ShiftTables() : t{} {
    uint32_t basis[32] = {};  // shift() of each single bit
    for (int bit = 0; bit < 32; ++bit) {
      uint32_t r = uint32_t(1) << bit;
      for (size_t i = 0; i < kStripe / 8; ++i) {  // eight zero bytes at a time
        const auto& k = kCrcTables.t;
        r = k[7][r & 0xff] ^ k[6][(r >> 8) & 0xff] ^ k[5][(r >> 16) & 0xff] ^ k[4][r >> 24];
      }
      basis[bit] = r;
    }
    for (int k = 0; k < 4; ++k)
      for (uint32_t b = 0; b < 256; ++b)
        for (int bit = 0; bit < 8; ++bit)
          if (b >> bit & 1) t[k][b] ^= basis[8 * k + bit];
  }
  uint32_t shift(uint32_t r) const {
    return t[0][r & 0xff] ^ t[1][(r >> 8) & 0xff] ^ t[2][(r >> 16) & 0xff] ^ t[3][r >> 24];
  }
};
constexpr ShiftTables kShift;

__attribute__((target("sse4.2"))) uint32_t crc32c_sse42(uint32_t crc, const uint8_t* p, size_t n) {
  uint32_t c = ~crc;
  while (n > 0 && (reinterpret_cast<uintptr_t>(p) & 7) != 0) {
    c = _mm_crc32_u8(c, *p++);
    --n;
  }
#if defined(__x86_64__)
  uint64_t c64 = c;
  for (; n >= 3 * kStripe; n -= 3 * kStripe, p += 3 * kStripe) {
    uint64_t c1 = 0, c2 = 0;
    for (size_t i = 0; i < kStripe; i += 8) {
      c64 = _mm_crc32_u64(c64, load_u64(p + i));
      c1 = _mm_crc32_u64(c1, load_u64(p + kStripe + i));
      c2 = _mm_crc32_u64(c2, load_u64(p + 2 * kStripe + i));
    }
    c64 = kShift.shift(kShift.shift(static_cast<uint32_t>(c64)) ^ static_cast<uint32_t>(c1)) ^ static_cast<uint32_t>(c2);
  }
  for (; n >= 8; n -= 8, p += 8) c64 = _mm_crc32_u64(c64, load_u64(p));
  c = static_cast<uint32_t>(c64);
#endif
  for (; n > 0; --n) c = _mm_crc32_u8(c, *p++);
  return ~c;
}
#endif

using CrcFn = uint32_t (*)(uint32_t, const void*, size_t);

CrcFn pick_crc() {
  return detail::crc32c_hardware_available() ? detail::crc32c_hardware : detail::crc32c_portable;
}

}  // namespace

namespace detail {

uint32_t crc32c_portable(uint32_t crc, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  const auto& t = kCrcTables.t;
  uint32_t c = ~crc;
  for (; size >= 8; size -= 8, p += 8) {
    uint32_t lo = load_u32(p) ^ c;  // little-endian host, as the format assumes
    uint32_t hi = load_u32(p + 4);
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^ t[4][lo >> 24] ^
        t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^ t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
  }
  for (; size > 0; --size) c = (c >> 8) ^ t[0][(c ^ *p++) & 0xff];
  return ~c;
}

bool crc32c_hardware_available() {
#ifdef FTS_HAVE_SSE42_PATH
  static const bool available = __builtin_cpu_supports("sse4.2");
  return available;
#else
  return false;
#endif
}

uint32_t crc32c_hardware(uint32_t crc, const void* data, size_t size) {
#ifdef FTS_HAVE_SSE42_PATH
  if (crc32c_hardware_available()) return crc32c_sse42(crc, static_cast<const uint8_t*>(data), size);
#endif
  throw std::logic_error("crc32c_hardware: no CRC-32C instruction on this CPU");
}

}  // namespace detail

uint32_t crc32c(uint32_t crc, const void* data, size_t size) {
  static const CrcFn fn = pick_crc();
  return fn(crc, data, size);
}

}  // namespace fts
