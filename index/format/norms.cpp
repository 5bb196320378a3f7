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

}  // namespace fts
