#include "index/format/for_codec.h"

#include <array>
#include <bit>
#include <cstring>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace fts {
namespace {

constexpr uint32_t kLanes = 4;
constexpr uint32_t kSlots = kForMaxValues / kLanes;  // values per lane

constexpr uint32_t low_mask(uint32_t width) { return width >= 32 ? 0xFFFFFFFFu : (1u << width) - 1; }

// ---- full blocks: vertical layout, one unrolled routine per width ----

// Calls f(integral_constant<K>) for K = 0..N-1 in order, so the shifts in the
// body are compile-time constants and the loop is fully unrolled.
template <uint32_t... Ks, class F>
inline void unroll_impl(std::integer_sequence<uint32_t, Ks...>, F&& f) {
  (f(std::integral_constant<uint32_t, Ks>{}), ...);
}
template <uint32_t N, class F>
inline void unroll(F&& f) {
  unroll_impl(std::make_integer_sequence<uint32_t, N>{}, std::forward<F>(f));
}

#if defined(__SSE2__)
template <uint32_t W>
void unpack128(const uint8_t* in, uint32_t* out) {
  if constexpr (W == 0) {
    std::memset(out, 0, kForMaxValues * sizeof(uint32_t));
  } else if constexpr (W == 32) {
    std::memcpy(out, in, kForMaxValues * sizeof(uint32_t));
  } else {
    const __m128i* src = reinterpret_cast<const __m128i*>(in);
    __m128i* dst = reinterpret_cast<__m128i*>(out);
    const __m128i mask = _mm_set1_epi32(static_cast<int>(low_mask(W)));
    __m128i cur = _mm_loadu_si128(src);
    unroll<kSlots>([&](auto k) {
      constexpr uint32_t K = decltype(k)::value;
      constexpr uint32_t bit = K * W, word = bit / 32, shift = bit % 32;
      __m128i v = _mm_srli_epi32(cur, shift);
      if constexpr (shift + W > 32) {
        cur = _mm_loadu_si128(src + word + 1);
        v = _mm_or_si128(v, _mm_slli_epi32(cur, 32 - shift));
      } else if constexpr (shift + W == 32 && K + 1 < kSlots) {
        cur = _mm_loadu_si128(src + word + 1);
      }
      _mm_storeu_si128(dst + K, _mm_and_si128(v, mask));
    });
  }
}
#else
// Portable version of the same layout: four lanes per step.
template <uint32_t W>
void unpack128(const uint8_t* in, uint32_t* out) {
  if constexpr (W == 0) {
    std::memset(out, 0, kForMaxValues * sizeof(uint32_t));
  } else if constexpr (W == 32) {
    std::memcpy(out, in, kForMaxValues * sizeof(uint32_t));
  } else {
    uint32_t words[4 * W];
    std::memcpy(words, in, sizeof(words));
    unroll<kSlots>([&](auto k) {
      constexpr uint32_t K = decltype(k)::value;
      constexpr uint32_t bit = K * W, word = bit / 32, shift = bit % 32;
      for (uint32_t j = 0; j < kLanes; ++j) {
        uint32_t v = words[word * kLanes + j] >> shift;
        if constexpr (shift + W > 32) v |= words[(word + 1) * kLanes + j] << (32 - shift);
        out[K * kLanes + j] = v & low_mask(W);
      }
    });
  }
}
#endif

using Unpacker = void (*)(const uint8_t*, uint32_t*);

template <uint32_t... Ws>
constexpr std::array<Unpacker, sizeof...(Ws)> make_unpackers(std::integer_sequence<uint32_t, Ws...>) {
  return {&unpack128<Ws>...};
}
constexpr auto kUnpackers = make_unpackers(std::make_integer_sequence<uint32_t, 33>{});

void pack128(const uint32_t* values, uint32_t width, uint8_t* out) {
  uint32_t words[4 * 32] = {};
  for (uint32_t i = 0; i < kForMaxValues; ++i) {
    const uint32_t lane = i % kLanes, bit = (i / kLanes) * width;
    const uint32_t word = bit / 32, shift = bit % 32;
    const uint64_t v = uint64_t(values[i] & low_mask(width)) << shift;
    words[word * kLanes + lane] |= static_cast<uint32_t>(v);
    if (shift + width > 32) words[(word + 1) * kLanes + lane] |= static_cast<uint32_t>(v >> 32);
  }
  std::memcpy(out, words, size_t(16) * width);
}

// ---- short blocks: one little-endian bit stream ----

void pack_stream(const uint32_t* values, uint32_t n, uint32_t width, uint8_t* out, size_t bytes) {
  std::memset(out, 0, bytes);
  for (uint32_t i = 0; i < n; ++i) {
    uint64_t bit = uint64_t(i) * width;
    uint64_t v = uint64_t(values[i] & low_mask(width)) << (bit % 8);
    for (uint64_t b = bit / 8; v != 0; ++b, v >>= 8) out[b] |= static_cast<uint8_t>(v);
  }
}

void unpack_stream(const uint8_t* in, size_t bytes, uint32_t n, uint32_t width, uint32_t* out) {
  // Copy into a zero-padded buffer so every value is one 8-byte load.
  uint8_t buf[kForMaxValues * 4 + 8] = {};
  std::memcpy(buf, in, bytes);
  const uint32_t mask = low_mask(width);
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t bit = i * width;
    uint64_t w;
    std::memcpy(&w, buf + bit / 8, 8);
    out[i] = static_cast<uint32_t>(w >> (bit % 8)) & mask;
  }
}

}  // namespace

uint32_t for_bit_width(const uint32_t* values, size_t n) {
  uint32_t acc = 0;
  for (size_t i = 0; i < n; ++i) acc |= values[i];
  return static_cast<uint32_t>(std::bit_width(acc));
}

void for_encode(const uint32_t* values, uint32_t n, std::string& out) {
  const uint32_t width = for_bit_width(values, n);
  const size_t size = for_encoded_size(n, width);
  const size_t at = out.size();
  out.resize(at + size);
  uint8_t* p = reinterpret_cast<uint8_t*>(out.data()) + at;
  *p++ = static_cast<uint8_t>(width);
  if (n == kForMaxValues)
    pack128(values, width, p);
  else
    pack_stream(values, n, width, p, size - 1);
}

const uint8_t* for_skip(const uint8_t* in, const uint8_t* end, uint32_t n) {
  if (in >= end || n == 0 || n > kForMaxValues) return nullptr;
  const uint32_t width = *in;
  if (width > 32) return nullptr;
  const size_t size = for_encoded_size(n, width);
  if (static_cast<size_t>(end - in) < size) return nullptr;
  return in + size;
}

const uint8_t* for_decode(const uint8_t* in, const uint8_t* end, uint32_t n, uint32_t* out) {
  const uint8_t* next = for_skip(in, end, n);
  if (next == nullptr) return nullptr;
  const uint32_t width = *in;
  if (n == kForMaxValues)
    kUnpackers[width](in + 1, out);
  else
    unpack_stream(in + 1, static_cast<size_t>(next - in - 1), n, width, out);
  return next;
}

}  // namespace fts
