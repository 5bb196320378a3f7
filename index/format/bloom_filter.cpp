#include "index/format/bloom_filter.h"

#include <algorithm>

#include "util/bytes.h"

namespace fts {

namespace {
constexpr uint32_t kProbes = 7;
constexpr uint64_t kBitsPerKey = 10;
constexpr size_t kBlockedPadding = 32;
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
  constexpr uint64_t kBlockBits = BloomFilter::kBlockBits;
  const uint64_t blocks = std::max<uint64_t>(1, (hashes_.size() * kBitsPerKey + kBlockBits - 1) / kBlockBits);
  std::vector<uint64_t> words(blocks * (kBlockBits / 64), 0);
  for (uint64_t h : hashes_) {
    uint64_t* block = words.data() + BloomFilter::block_of(h, blocks) * (kBlockBits / 64);
    uint32_t g = static_cast<uint32_t>(h);
    for (uint32_t i = 0; i < kProbes; ++i, g *= BloomFilter::kProbeStep) {
      const uint32_t bit = g >> 23;
      block[bit >> 6] |= uint64_t(1) << (bit & 63);
    }
  }
  std::string header;
  put_u32(header, kProbes);
  put_u32(header, static_cast<uint32_t>(BloomFilter::Layout::kBlocked));
  put_u64(header, blocks * kBlockBits);
  // The payload starts 16 bytes into the file (a mapping starts on a page):
  // 32 more bytes put every block on a 64-byte line.
  header.append(kBlockedPadding, '\0');
  FileWriter out(path, FileKind::kBloom);
  out.write(header.data(), header.size());
  out.write(words.data(), words.size() * 8);  // little-endian host, as the format assumes
  out.finish();
}

BloomFilter::BloomFilter(std::span<const uint8_t> payload, const std::string& path) {
  if (payload.size() < 16) throw_corrupt(path, 0, "Bloom filter header truncated");
  probes_ = load_u32(payload.data());
  const uint32_t layout = load_u32(payload.data() + 4);
  bits_ = load_u64(payload.data() + 8);
  if (layout > static_cast<uint32_t>(Layout::kBlocked))
    throw_corrupt(path, 4, "unknown Bloom filter layout " + std::to_string(layout));
  layout_ = static_cast<Layout>(layout);
  const bool blocked = layout_ == Layout::kBlocked;
  const uint64_t header = blocked ? 16 + kBlockedPadding : 16;
  const uint64_t unit = blocked ? kBlockBits : 64;
  if (probes_ == 0 || probes_ > 32 || bits_ == 0 || bits_ % unit != 0 || payload.size() < header ||
      payload.size() - header != bits_ / 8) {
    throw_corrupt(path, 0, "Bloom filter of " + std::to_string(bits_) + " bits and " + std::to_string(probes_) +
                               " probes in " + std::to_string(payload.size()) + " bytes");
  }
  blocks_ = bits_ / kBlockBits;
  // The payload starts 16-byte aligned in the mapping, the words 16 (classic)
  // or 48 bytes (blocked: 64-byte aligned) in.
  words_ = std::span<const uint64_t>(reinterpret_cast<const uint64_t*>(payload.data() + header), bits_ / 64);
}

}  // namespace fts
