#include "index/format/bloom_filter.h"

#include <algorithm>

#include "util/bytes.h"

namespace fts {

namespace {
constexpr uint32_t kProbes = 7;
constexpr uint64_t kBitsPerKey = 10;
}  // namespace

uint64_t bloom_hash(std::string_view key) {
  // FNV-1a, then the splitmix64 finalizer to spread FNV's weak high bits.
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : key) h = (h ^ c) * 0x100000001b3ull;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

void BloomFilterWriter::write(const std::string& path) const {
  const uint64_t bits = std::max<uint64_t>(64, (hashes_.size() * kBitsPerKey + 63) / 64 * 64);
  std::vector<uint64_t> words(bits / 64, 0);
  for (uint64_t h : hashes_) {
    uint64_t h1 = h, h2 = (h >> 32) | (h << 32) | 1;
    for (uint32_t i = 0; i < kProbes; ++i, h1 += h2) {
      const uint64_t bit = h1 % bits;
      words[bit >> 6] |= uint64_t(1) << (bit & 63);
    }
  }
  std::string header;
  put_u32(header, kProbes);
  put_u32(header, 0);
  put_u64(header, bits);
  FileWriter out(path, FileKind::kBloom);
  out.write(header.data(), header.size());
  out.write(words.data(), words.size() * 8);  // little-endian host, as the format assumes
  out.finish();
}

BloomFilter::BloomFilter(std::span<const uint8_t> payload, const std::string& path) {
  if (payload.size() < 16) throw_corrupt(path, 0, "Bloom filter header truncated");
  probes_ = load_u32(payload.data());
  bits_ = load_u64(payload.data() + 8);
  if (probes_ == 0 || probes_ > 32 || bits_ == 0 || bits_ % 64 != 0 || payload.size() - 16 != bits_ / 8) {
    throw_corrupt(path, 0, "Bloom filter of " + std::to_string(bits_) + " bits and " + std::to_string(probes_) +
                               " probes in " + std::to_string(payload.size()) + " bytes");
  }
  // The payload starts 16-byte aligned in the mapping, the words 16 bytes in.
  words_ = std::span<const uint64_t>(reinterpret_cast<const uint64_t*>(payload.data() + 16), bits_ / 64);
}

}  // namespace fts
