// Roaring bitmaps of recurring costly subqueries, per segment. A subquery is
// materialised once it has been seen twice (one-off queries never pay for a
// bitmap) and its cursor would read at least min_work postings. Bounded in
// bytes with LRU eviction. Keys carry the index generation and segment name;
// seeing a newer generation drops everything older, so a changed index is
// never answered from stale bitmaps. Thread-safe; a bitmap in use stays
// alive through its shared_ptr even when evicted.
#pragma once

#include <roaring/roaring.hh>

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "query/searcher.h"

namespace fts {

class FilterCache {
 public:
  using Bitmap = Roaring;  // CRoaring 0.2 declares it in the global namespace
  static constexpr uint64_t kDefaultMinWork = 20000;

  struct Key {
    uint64_t generation = 0;
    std::string segment;  // segment name
    std::string query;    // QueryNode::to_string() of the subquery
  };
  struct Lookup {
    std::shared_ptr<const Bitmap> bitmap;  // null on a miss
    uint32_t sightings = 0;                // on a miss: times seen, this one included
  };

  explicit FilterCache(size_t capacity_bytes, uint64_t min_work = kDefaultMinWork);

  // A hit refreshes the entry's LRU position; a miss counts one more
  // sighting. Both update the stats.
  Lookup lookup(const Key& key);
  // Like lookup() but changes nothing (explain).
  std::shared_ptr<const Bitmap> peek(const Key& key) const;
  // Whether a subquery seen `sightings` times that reads `work` postings
  // should be materialised now.
  bool worth_caching(uint32_t sightings, uint64_t work) const { return sightings >= 2 && work >= min_work_; }
  // Adds (or replaces) an entry, then evicts least recently used entries
  // until the cache fits its capacity. A bitmap larger than the capacity, or
  // of an outdated generation, is not kept.
  void insert(const Key& key, std::shared_ptr<const Bitmap> bitmap);

  CacheStats stats() const;
  uint64_t min_work() const { return min_work_; }

 private:
  struct Entry {
    std::string key;
    uint64_t generation;
    std::shared_ptr<const Bitmap> bitmap;
    size_t bytes;
  };
  static std::string flat_key(const Key& key);
  // Drops entries and sightings of generations older than generation.
  void observe_generation(uint64_t generation);
  void evict_to(size_t capacity);

  const size_t capacity_;
  const uint64_t min_work_;
  mutable std::mutex mutex_;
  std::list<Entry> lru_;  // front = most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> entries_;
  std::unordered_map<std::string, uint32_t> sightings_;
  uint64_t generation_ = 0;
  size_t bytes_ = 0;
  uint64_t hits_ = 0, misses_ = 0;
};

}  // namespace fts
