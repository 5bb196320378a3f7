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

#include "index/document.h"
#include "index/file_format.h"
#include "index/postings.h"

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
  explicit TermDictWriter(Sink& out);
  // Keys strictly increasing (bytewise); throws std::logic_error otherwise.
  void add(std::string_view key, const TermInfo& info);
  void finish();  // writes the last block and the block index
  uint64_t size() const { return count_; }

 private:
  Sink& out_;
  uint64_t count_ = 0;
  // Further members as the implementation needs.
};

class TermDictReader {
 public:
  TermDictReader() = default;
  // Reads only the block index; throws IndexError on damage.
  TermDictReader(std::span<const uint8_t> payload, std::string path_for_errors);

  std::optional<TermInfo> find(std::string_view key) const;
  uint64_t size() const;

  // Ordered iteration from the first key >= start (for prefix enumeration
  // and merging).
  class Iterator {
   public:
    bool valid() const;
    void next();
    std::string_view key() const;
    const TermInfo& info() const;
    // Implementation state.
  };
  Iterator seek(std::string_view start) const;
  Iterator begin() const { return seek({}); }
  // Calls fn(key, info) for every key starting with prefix, in order.
  template <class Fn>
  void for_each_prefix(std::string_view prefix, Fn&& fn) const {
    for (auto it = seek(prefix); it.valid() && it.key().starts_with(prefix); it.next()) fn(it.key(), it.info());
  }
};

}  // namespace fts
