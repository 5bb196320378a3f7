// A segment's url table: the local docs holding a url, found without
// reading the doc store, for deletes and updates by url (the dump's external
// key). On disk (NAME.urls): u32 count, u32 zero, then count u32 hashes in
// ascending order and the count u32 local docs they belong to (ascending
// within one hash), framed like every index file and read through its map.
// A hash is the low 32 bits of bloom_hash(url): a lookup gives candidates,
// which the caller confirms against the stored url (with a million docs in
// a segment, one lookup in about 4,000 meets a colliding doc).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "index/format/bloom_filter.h"
#include "index/format/fields.h"

namespace fts {

inline uint32_t url_hash(std::string_view url) { return static_cast<uint32_t>(bloom_hash(url)); }

class UrlTableWriter {
 public:
  void add(std::string_view url) { hashes_.push_back(url_hash(url)); }  // the next local doc's url
  // The urls of all the docs of table's segment, as the next local docs,
  // read from its hashes (IndexError naming path when they are damaged).
  void add_all(const class UrlTable& table, const std::string& path_for_errors);
  void write(const std::string& path) const;  // throws IndexError

 private:
  std::vector<uint32_t> hashes_;  // by local doc
};

class UrlTable {
 public:
  UrlTable() = default;  // no table (a segment written before them)
  UrlTable(std::span<const uint8_t> payload, uint32_t doc_count, const std::string& path_for_errors);  // IndexError

  bool empty() const { return hashes_.empty(); }
  // Calls visit(local doc) for every doc whose url may be url, ascending.
  template <class Visit>
  void for_each_candidate(std::string_view url, Visit&& visit) const {
    const uint32_t h = url_hash(url);
    auto [first, last] = std::equal_range(hashes_.begin(), hashes_.end(), h);
    for (auto it = first; it != last; ++it) visit(docs_[static_cast<size_t>(it - hashes_.begin())]);
  }
  // The structural checks of fts-index check: every doc once, hashes ascending.
  void check(const std::string& path) const;

 private:
  friend class UrlTableWriter;
  std::span<const uint32_t> hashes_, docs_;
};

}  // namespace fts
