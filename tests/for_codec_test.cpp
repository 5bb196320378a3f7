#include "index/format/for_codec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace fts {
namespace {

const uint8_t* bytes_of(const std::string& s) { return reinterpret_cast<const uint8_t*>(s.data()); }

uint32_t max_of_width(uint32_t w) { return w == 0 ? 0 : w == 32 ? 0xFFFFFFFFu : (1u << w) - 1; }

// Random values of exactly the given width: the top bit of the width is set
// in one value, so the encoder must choose this width, and the extremes
// (0 and 2^w - 1) appear.
std::vector<uint32_t> values_of_width(std::mt19937& rng, uint32_t n, uint32_t w) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = rng() & max_of_width(w);
  if (n > 2) v[rng() % n] = 0;
  if (w > 0) {
    v[rng() % n] = max_of_width(w);
    v[rng() % n] |= 1u << (w - 1);
  }
  return v;
}

TEST(ForCodec, RoundTripsEveryWidthAndSize) {
  std::mt19937 rng(42);
  for (uint32_t w = 0; w <= 32; ++w) {
    for (uint32_t n = 1; n <= kForMaxValues; ++n) {
      auto values = values_of_width(rng, n, w);
      std::string enc = "prefix";  // encoding appends
      for_encode(values.data(), n, enc);
      ASSERT_EQ(enc.size(), 6 + for_encoded_size(n, w)) << "w=" << w << " n=" << n;
      ASSERT_EQ(uint8_t(enc[6]), w);
      std::vector<uint32_t> out(n + 1, 0xDEADBEEF);
      const uint8_t* begin = bytes_of(enc) + 6;
      const uint8_t* end = bytes_of(enc) + enc.size();
      ASSERT_EQ(for_decode(begin, end, n, out.data()), end) << "w=" << w << " n=" << n;
      ASSERT_EQ(out.back(), 0xDEADBEEF) << "decoder wrote past n values";
      out.pop_back();
      ASSERT_EQ(out, values) << "w=" << w << " n=" << n;
      ASSERT_EQ(for_skip(begin, end, n), end);
    }
  }
}

TEST(ForCodec, AllEqualZeroTakesOneByte) {
  std::vector<uint32_t> zeros(128, 0);
  std::string enc;
  for_encode(zeros.data(), 128, enc);
  EXPECT_EQ(enc.size(), 1u);
}

TEST(ForCodec, AllMaxValuesAtWidth32) {
  std::vector<uint32_t> v(128, 0xFFFFFFFFu);
  std::string enc;
  for_encode(v.data(), 128, enc);
  std::vector<uint32_t> out(128);
  ASSERT_NE(for_decode(bytes_of(enc), bytes_of(enc) + enc.size(), 128, out.data()), nullptr);
  EXPECT_EQ(out, v);
}

TEST(ForCodec, RejectsTruncatedInput) {
  std::mt19937 rng(7);
  for (uint32_t w : {1u, 5u, 13u, 32u}) {
    for (uint32_t n : {1u, 3u, 100u, 128u}) {
      auto values = values_of_width(rng, n, w);
      std::string enc;
      for_encode(values.data(), n, enc);
      std::vector<uint32_t> out(n);
      for (size_t len = 0; len < enc.size(); ++len) {
        // A copy of exactly len bytes, so ASan sees any read past the end.
        std::vector<uint8_t> cut(enc.begin(), enc.begin() + len);
        EXPECT_EQ(for_decode(cut.data(), cut.data() + len, n, out.data()), nullptr) << "len=" << len;
        EXPECT_EQ(for_skip(cut.data(), cut.data() + len, n), nullptr);
      }
    }
  }
}

TEST(ForCodec, RejectsWidthAbove32) {
  std::vector<uint8_t> data(1 + 33 * 16, 0);
  data[0] = 33;
  std::vector<uint32_t> out(128);
  EXPECT_EQ(for_decode(data.data(), data.data() + data.size(), 128, out.data()), nullptr);
  data[0] = 255;
  EXPECT_EQ(for_decode(data.data(), data.data() + data.size(), 1, out.data()), nullptr);
}

TEST(ForCodec, RejectsBadCounts) {
  std::vector<uint8_t> data(600, 0);
  std::vector<uint32_t> out(200);
  EXPECT_EQ(for_decode(data.data(), data.data() + data.size(), 0, out.data()), nullptr);
  EXPECT_EQ(for_decode(data.data(), data.data() + data.size(), 129, out.data()), nullptr);
}

TEST(ForCodec, BitWidth) {
  uint32_t v[] = {0, 0, 0};
  EXPECT_EQ(for_bit_width(v, 3), 0u);
  v[1] = 1;
  EXPECT_EQ(for_bit_width(v, 3), 1u);
  v[2] = 0x80000000u;
  EXPECT_EQ(for_bit_width(v, 3), 32u);
  v[2] = 255;
  EXPECT_EQ(for_bit_width(v, 3), 8u);
}

}  // namespace
}  // namespace fts
