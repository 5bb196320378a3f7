// A segment's Bloom filter over its dictionary keys: "is this key absent?"
// answered from a few bits, before the dictionary's block search. About 10
// bits and 7 probes a key give about 1% false positives and no false
// negatives. On disk (NAME.bloom): u32 probes, u32 zero, u64 bits, then the
// bits as u64 words, framed like every index file and read through its map.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "index/format/file_format.h"

namespace fts {

// A 64-bit hash of a key, the same on every platform (it is on disk).
uint64_t bloom_hash(std::string_view key);

class BloomFilterWriter {
 public:
  void add(std::string_view key) { hashes_.push_back(bloom_hash(key)); }
  void write(const std::string& path) const;  // throws IndexError

 private:
  std::vector<uint64_t> hashes_;
};

class BloomFilter {
 public:
  BloomFilter() = default;  // no filter: every key may be present
  BloomFilter(std::span<const uint8_t> payload, const std::string& path_for_errors);  // throws IndexError

  bool may_contain(std::string_view key) const {
    if (words_.empty()) return true;
    const uint64_t h = bloom_hash(key);
    // Double hashing (Kirsch and Mitzenmacher): probe i at h1 + i * h2.
    uint64_t h1 = h, h2 = (h >> 32) | (h << 32) | 1;
    for (uint32_t i = 0; i < probes_; ++i, h1 += h2) {
      const uint64_t bit = h1 % bits_;
      if (!(words_[bit >> 6] >> (bit & 63) & 1)) return false;
    }
    return true;
  }
  bool empty() const { return words_.empty(); }

 private:
  std::span<const uint64_t> words_;
  uint64_t bits_ = 0;
  uint32_t probes_ = 0;
};

}  // namespace fts
