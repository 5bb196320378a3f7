#include "index/writer/simhash.h"

#include <algorithm>
#include <array>

#include "index/format/bloom_filter.h"

namespace fts {

namespace {

uint64_t mix(uint64_t h) {  // splitmix64's finalizer
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

void add_features(std::span<const std::string_view> terms, SimHashFeatures features, std::vector<uint64_t>& out) {
  uint64_t previous = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const uint64_t h = bloom_hash(terms[i]);
    if (features == SimHashFeatures::kTerms) {
      out.push_back(h);
    } else if (i > 0) {
      out.push_back(mix(previous * 0x9e3779b97f4a7c15ull ^ h));
    } else if (terms.size() == 1) {
      out.push_back(h);  // a one-word field is its own shingle
    }
    previous = h;
  }
}

}  // namespace

uint64_t SimHasher::fingerprint(std::span<const std::string_view> title_terms,
                                std::span<const std::string_view> abstract_terms, SimHashFeatures features) {
  hashes_.clear();
  add_features(title_terms, features, hashes_);
  add_features(abstract_terms, features, hashes_);
  if (hashes_.empty()) return 0;
  // Distinct features, weight 1: a repeated word does not outvote the rest.
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
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
  return fp == 0 ? 1 : fp;  // 0 means "no fingerprint"
}

}  // namespace fts
