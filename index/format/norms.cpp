#include "index/format/norms.h"

#include <cstring>

namespace fts {

NormsScan scan_norms(const uint8_t* pairs, const uint8_t* any_column, uint32_t docs) {
  NormsScan scan;
  uint32_t shortest[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
  for (uint32_t d = 0; d < docs; ++d) {
    uint16_t v[2];
    std::memcpy(v, pairs + size_t(d) * 4, 4);
    shortest[0] = std::min<uint32_t>(shortest[0], uint32_t{v[0]} + v[1]);
    shortest[1] = std::min<uint32_t>(shortest[1], v[0]);
    shortest[2] = std::min<uint32_t>(shortest[2], v[1]);
    if (any_column && scan.first_wrong_byte == UINT32_MAX && any_column[d] != any_length_byte(v[0], v[1])) {
      scan.first_wrong_byte = d;
    }
  }
  if (docs > 0) std::copy(shortest, shortest + 3, scan.shortest);
  return scan;
}

std::string long_any_table(const uint8_t* pairs, uint32_t docs) {
  std::string blocks, entries;
  uint32_t count = 0;
  const uint32_t block_count = (docs >> kLongTableBlockBits) + 1;
  for (uint32_t b = 0; b < block_count; ++b) {
    blocks.append(reinterpret_cast<const char*>(&count), 4);
    const uint32_t end = std::min(docs, (b + 1) << kLongTableBlockBits);
    for (uint32_t d = b << kLongTableBlockBits; d < end; ++d) {
      uint16_t v[2];
      std::memcpy(v, pairs + size_t(d) * 4, 4);
      if (any_length_byte(v[0], v[1]) != kLongAnyLength) continue;
      const uint32_t entry = (d & ((1u << kLongTableBlockBits) - 1)) << 24 | (uint32_t{v[0]} + v[1]);
      entries.append(reinterpret_cast<const char*>(&entry), 4);
      ++count;
    }
  }
  blocks.append(reinterpret_cast<const char*>(&count), 4);
  std::string table(reinterpret_cast<const char*>(&count), 4);
  return table + blocks + entries;
}

}  // namespace fts
