// The layout of a segment's norms file: per doc the analyzed length of each
// field, which BM25 reads for every scored hit.
//
// Payload: u32 docs | u64 total length of kAny, kTitle, kAbstract | (format
// 4 on) u32 shortest length of each | docs x (u16 title, u16 abstract),
// saturated at 65535 | (format 5 on) docs x u8: the kAny length, or
// kLongAnyLength for that and longer | (format 7 on) the long docs' table.
//
// Why a byte column beside the pairs: unfielded terms, nearly every scored
// hit, read kAny alone, and a byte a doc touches a quarter of the cache lines
// and pages the pairs do. Scoring the hits of a frequent term jumps through
// the norms; at 6,000,000 docs `electric (electric OR grid OR stability)`
// (62,087 hits, top 10) spent most of its time waiting on the pairs.
//
// Why a table of the long docs (byte kLongAnyLength): they are few (0.7% of
// the 6M-doc Zipf dump) but hold many terms, so they are many of the hits
// of common terms, and each sent scoring to the pairs (24 MB at 6M docs): a
// cache miss a hit. The table is 4 bytes a long doc plus 4 a 256-doc block
// (270 KB at 6M docs), which stays in cache: u32 long docs | (docs / 256 +
// 2) x u32, the index of each block's first entry and an end | long docs x
// u32 (doc % 256) << 24 | kAny length, in doc order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace fts {

inline constexpr size_t kNormsHeaderBytes = 4 + 3 * 8 + 3 * 4;
inline constexpr size_t kNormsHeaderBytesBefore4 = 4 + 3 * 8;
inline constexpr uint32_t kFirstVersionWithAnyColumn = 5;
inline constexpr uint32_t kFirstVersionWithLongTable = 7;
inline constexpr uint8_t kLongAnyLength = 255;
inline constexpr uint32_t kLongTableBlockBits = 8;  // docs a block: 256

inline uint8_t any_length_byte(uint16_t title, uint16_t abstract) {
  return static_cast<uint8_t>(std::min<uint32_t>(uint32_t{title} + abstract, kLongAnyLength));
}

// What a pass over a segment's norms finds.
struct NormsScan {
  uint32_t shortest[3] = {0, 0, 0};  // of kAny, kTitle, kAbstract (0 without docs)
  uint32_t first_wrong_byte = UINT32_MAX;  // the first doc whose byte disagrees with its pair
};
// pairs: docs x (u16 title, u16 abstract); any_column: docs bytes or null.
NormsScan scan_norms(const uint8_t* pairs, const uint8_t* any_column, uint32_t docs);

// The long docs' table of the pairs, as written after the byte column.
std::string long_any_table(const uint8_t* pairs, uint32_t docs);
// The bytes of a table of long_docs entries for a segment of docs docs.
inline size_t long_any_table_bytes(uint32_t long_docs, uint32_t docs) {
  return 4 + ((size_t{docs} >> kLongTableBlockBits) + 2) * 4 + size_t{long_docs} * 4;
}

// Reads the kAny length of a long doc from a table; a damaged table gives a
// wrong length (0 when absent), never a read outside it.
class LongAnyLengths {
 public:
  LongAnyLengths() = default;
  // table: long_any_table_bytes() bytes, checked by the caller.
  LongAnyLengths(const uint8_t* table, uint32_t docs)
      : count_(load(table)), blocks_(table + 4), entries_(table + long_any_table_bytes(0, docs)) {}

  uint32_t get(uint32_t doc) const {
    const size_t block = doc >> kLongTableBlockBits;
    uint32_t i = load(blocks_ + block * 4);
    const uint32_t end = std::min(load(blocks_ + block * 4 + 4), count_);
    const uint32_t key = (doc & ((1u << kLongTableBlockBits) - 1)) << 24;
    for (; i < end; ++i) {
      const uint32_t e = load(entries_ + size_t{i} * 4);
      if ((e & 0xFF000000u) == key) return e & 0xFFFFFFu;
    }
    return 0;
  }

 private:
  static uint32_t load(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  uint32_t count_ = 0;
  const uint8_t* blocks_ = nullptr;
  const uint8_t* entries_ = nullptr;
};

}  // namespace fts
