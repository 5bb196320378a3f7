// A segment's Bloom filter over its dictionary keys: "is this key absent?"
// answered from a few bits, before the dictionary's block search. About 10
// bits and 7 probes a key give about 1% false positives and no false
// negatives. A key's probes all fall in one 64-byte block (one cache line,
// as RocksDB's format 5 filters), so a lookup of a present key touches one
// line where the classic layout touched seven; files of the classic layout
// (written before) are still read. On disk (NAME.bloom): u32 probes, u32
// layout, u64 bits, (blocked: 32 zero bytes), then the bits as u64 words,
// framed like every index file and read through its map (index/FORMAT.md).
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
  enum class Layout : uint32_t { kClassic = 0, kBlocked = 1 };
  static constexpr uint64_t kBlockBits = 512;

  BloomFilter() = default;  // no filter: every key may be present
  BloomFilter(std::span<const uint8_t> payload, const std::string& path_for_errors);  // throws IndexError

  bool may_contain(std::string_view key) const { return words_.empty() || may_contain_hash(bloom_hash(key)); }
  // The same for a key whose bloom_hash() is h: a term is looked up in
  // every segment of an index, and its hash is the same in each.
  bool may_contain_hash(uint64_t h) const {
    if (words_.empty()) return true;
    if (layout_ == Layout::kBlocked) {
      const uint64_t* block = words_.data() + block_of(h, blocks_) * (kBlockBits / 64);
      uint32_t g = static_cast<uint32_t>(h);
      for (uint32_t i = 0; i < probes_; ++i, g *= kProbeStep) {
        const uint32_t bit = g >> 23;  // the top 9 bits: one of the block's 512
        if (!(block[bit >> 6] >> (bit & 63) & 1)) return false;
      }
      return true;
    }
    // Classic: double hashing (Kirsch and Mitzenmacher), probe i at h1 + i * h2.
    uint64_t h1 = h, h2 = (h >> 32) | (h << 32) | 1;
    for (uint32_t i = 0; i < probes_; ++i, h1 += h2) {
      const uint64_t bit = h1 % bits_;
      if (!(words_[bit >> 6] >> (bit & 63) & 1)) return false;
    }
    return true;
  }
  bool empty() const { return words_.empty(); }

  // The block of a hash: its high 32 bits scaled to the block count (a
  // multiply, not a division). Every probe after the first multiplies the
  // low 32 bits by kProbeStep (the golden ratio's): shared with the writer.
  static uint64_t block_of(uint64_t h, uint64_t blocks) { return ((h >> 32) * blocks) >> 32; }
  static constexpr uint32_t kProbeStep = 0x9e3779b9u;

 private:
  std::span<const uint64_t> words_;
  uint64_t bits_ = 0;
  uint64_t blocks_ = 0;
  uint32_t probes_ = 0;
  Layout layout_ = Layout::kClassic;
};

}  // namespace fts
