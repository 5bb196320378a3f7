// Term dictionary of one segment: keys (a field byte followed by the term's
// UTF-8 bytes, see term_key()) in bytewise order, front-coded in blocks,
// each key mapped to its TermInfo; a small in-memory index of each block's
// first key makes lookup one binary search plus one block scan.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "index/format/fields.h"
#include "index/format/file_format.h"
#include "index/format/postings.h"
#include "util/bytes.h"

namespace fts {

// The dictionary key of term in field.
inline std::string term_key(Field field, std::string_view term) {
  std::string key;
  key.reserve(term.size() + 1);
  key.push_back(static_cast<char>(field));
  key.append(term);
  return key;
}

class TermDictWriter {
 public:
  // The dictionary must be the whole payload of out (the reader is given
  // exactly the bytes written from here on).
  explicit TermDictWriter(Sink& out);
  // Keys strictly increasing (bytewise); throws std::logic_error otherwise.
  void add(std::string_view key, const TermInfo& info);
  void finish();  // writes the last block and the block index
  uint64_t size() const { return count_; }

 private:
  void flush_block();

  Sink& out_;
  uint64_t count_ = 0;
  uint64_t written_ = 0;        // block bytes written so far
  uint32_t in_block_ = 0;       // entries in block_
  bool finished_ = false;
  std::string block_;           // the block being built
  std::string prev_key_;
  TermInfo prev_info_;
  std::string first_keys_;      // first key of every block, concatenated
  std::vector<uint32_t> first_key_starts_;
  std::vector<uint64_t> block_starts_;
};

class TermDictReader {
 public:
  TermDictReader() = default;
  // Reads only the tail (format 4; before, the block index too, to make
  // its key prefixes); throws IndexError on damage. Lookups check the
  // parts of the block index they read.
  TermDictReader(std::span<const uint8_t> payload, std::string path_for_errors, uint32_t version = kFormatVersion);

  std::optional<TermInfo> find(std::string_view key) const;
  uint64_t size() const { return count_; }
  // Verifies the whole block index: offsets that rise and end where the
  // next region starts, and the stored key prefixes (fts-index check).
  void check() const;

  // Ordered iteration from the first key >= start (for prefix enumeration
  // and merging).
  class Iterator {
   public:
    bool valid() const;
    void next();
    std::string_view key() const;
    const TermInfo& info() const;

   private:
    friend class TermDictReader;
    void load_block(uint64_t block);
    const TermDictReader* dict_ = nullptr;
    uint64_t block_ = 0;
    uint32_t entry_ = 0, entries_ = 0;  // position within the block
    const uint8_t* pos_ = nullptr;      // next entry
    const uint8_t* end_ = nullptr;      // end of the block
    std::string key_;
    TermInfo info_;
  };
  Iterator seek(std::string_view start) const;
  Iterator begin() const { return seek({}); }
  // Calls fn(key, info) for every key starting with prefix, in order.
  template <class Fn>
  void for_each_prefix(std::string_view prefix, Fn&& fn) const {
    for (auto it = seek(prefix); it.valid() && it.key().starts_with(prefix); it.next()) fn(it.key(), it.info());
  }

 private:
  // Payload layout: blocks of front-coded entries, the first keys of all
  // blocks concatenated, u32[blocks + 1] first-key offsets, u64[blocks + 1]
  // block offsets, (format 4) u64[blocks] first-key prefixes, then a fixed
  // tail (see term_dict.cpp).
  std::string_view first_key(uint64_t block) const;
  // The bytes of block, [*begin, *end); IndexError when the index puts
  // them out of order or outside the blocks.
  void block_bytes(uint64_t block, const uint8_t** begin, const uint8_t** end) const;
  uint32_t entries_in(uint64_t block) const;
  uint64_t prefix(uint64_t block) const { return load_u64(prefixes_ + block * 8); }
  uint64_t block_for(std::string_view key) const;  // last block whose first key <= key, or n_blocks_
  [[noreturn]] void corrupt(const uint8_t* at, const std::string& what) const;

  std::span<const uint8_t> payload_;
  std::string path_;
  uint64_t count_ = 0;
  uint64_t n_blocks_ = 0;
  uint32_t per_block_ = 0;
  uint64_t keys_start_ = 0, keys_len_ = 0;     // the first-key region (the blocks end where it starts)
  const uint8_t* first_keys_ = nullptr;
  const uint8_t* first_key_starts_ = nullptr;  // u32[n_blocks_ + 1], unaligned
  const uint8_t* block_starts_ = nullptr;      // u64[n_blocks_ + 1], unaligned
  // Each block's first key's first 8 bytes as a number that orders as they
  // do (key_prefix()), for block_for(): u64[n_blocks_], unaligned, in the
  // payload (format 4) or in computed_prefixes_ (made at open before).
  const uint8_t* prefixes_ = nullptr;
  std::vector<uint64_t> computed_prefixes_;
};

}  // namespace fts
