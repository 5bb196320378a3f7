#include "index/writer/simhash.h"

#include <algorithm>
#include <array>

#include "index/format/bloom_filter.h"

namespace fts {

uint64_t SimHasher::feature_hash(std::string_view term) { return bloom_hash(term); }

uint64_t SimHasher::shingle_hash(uint64_t previous, uint64_t hash) {
  uint64_t h = previous * 0x9e3779b97f4a7c15ull ^ hash;  // then splitmix64's finalizer
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

void SimHasher::compact() {
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  compact_at_ = std::max(kCompactAt, 2 * hashes_.size());
}

uint64_t SimHasher::vote() {
  if (hashes_.empty()) return 0;
  // Distinct features, weight 1: a repeated word does not outvote the rest.
  compact();
  // A bit's votes are positive where more than half the features set it.
  // Ones are counted a byte of the hash at a time: kSpread[v] holds bit j
  // of v in byte j, so one add counts 8 bits into 8 byte-wide counters of
  // a word, emptied before a byte can overflow (a loop over the 64 bits of
  // every feature took 5% of a build).
  static constexpr std::array<uint64_t, 256> kSpread = [] {
    std::array<uint64_t, 256> t{};
    for (unsigned v = 0; v < 256; ++v) {
      for (unsigned j = 0; j < 8; ++j) t[v] |= uint64_t((v >> j) & 1) << (8 * j);
    }
    return t;
  }();
  uint32_t ones[64] = {};
  uint64_t lanes[8] = {};  // byte j of lanes[i]: ones at bit 8i + j since the last emptying
  auto empty_lanes = [&] {
    for (int i = 0; i < 8; ++i) {
      for (int j = 0; j < 8; ++j) ones[8 * i + j] += (lanes[i] >> (8 * j)) & 0xff;
      lanes[i] = 0;
    }
  };
  for (size_t f = 0; f < hashes_.size(); ++f) {
    const uint64_t h = hashes_[f];
    for (int i = 0; i < 8; ++i) lanes[i] += kSpread[(h >> (8 * i)) & 0xff];
    if (f % 255 == 254) empty_lanes();
  }
  empty_lanes();
  uint64_t fp = 0;
  for (int bit = 0; bit < 64; ++bit) fp |= uint64_t(2 * uint64_t(ones[bit]) > hashes_.size()) << bit;
  if (hashes_.capacity() > kCompactAt) std::vector<uint64_t>().swap(hashes_);  // a long text's hashes go
  return fp == 0 ? 1 : fp;  // 0 means "no fingerprint"
}

}  // namespace fts
