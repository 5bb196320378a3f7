#include "query/filter_cache.h"

#include <utility>

namespace fts {

namespace {
// Sightings of queries that never recur would otherwise grow without bound;
// forgetting them all now and then only delays caching by one more sighting.
constexpr size_t kMaxSightings = 1 << 16;
}  // namespace

FilterCache::FilterCache(size_t capacity_bytes, uint64_t min_work)
    : capacity_(capacity_bytes), min_work_(min_work) {}

std::string FilterCache::flat_key(const Key& key) {
  std::string k = std::to_string(key.generation);
  k += '\x1f';
  k += key.segment;
  k += '\x1f';
  k += key.query;
  return k;
}

void FilterCache::observe_generation(uint64_t generation) {
  if (generation <= generation_) return;
  generation_ = generation;
  for (auto it = lru_.begin(); it != lru_.end();) {
    if (it->generation < generation) {
      bytes_ -= it->bytes;
      entries_.erase(it->key);
      it = lru_.erase(it);
    } else {
      ++it;
    }
  }
  sightings_.clear();
}

FilterCache::Lookup FilterCache::lookup(const Key& key) {
  std::string k = flat_key(key);
  std::lock_guard lock(mutex_);
  observe_generation(key.generation);
  if (auto it = entries_.find(k); it != entries_.end()) {
    lru_.splice(lru_.begin(), lru_, it->second);
    ++hits_;
    return {it->second->bitmap, 0};
  }
  ++misses_;
  if (sightings_.size() >= kMaxSightings) sightings_.clear();
  return {nullptr, ++sightings_[k]};
}

std::shared_ptr<const FilterCache::Bitmap> FilterCache::peek(const Key& key) const {
  std::string k = flat_key(key);
  std::lock_guard lock(mutex_);
  auto it = entries_.find(k);
  return it == entries_.end() ? nullptr : it->second->bitmap;
}

void FilterCache::insert(const Key& key, std::shared_ptr<const Bitmap> bitmap) {
  std::string k = flat_key(key);
  const size_t bytes = bitmap->getSizeInBytes() + k.size() + sizeof(Entry);
  std::lock_guard lock(mutex_);
  observe_generation(key.generation);
  if (key.generation < generation_ || bytes > capacity_) return;
  if (auto it = entries_.find(k); it != entries_.end()) {
    bytes_ -= it->second->bytes;
    lru_.erase(it->second);
    entries_.erase(it);
  }
  evict_to(capacity_ - bytes);
  lru_.push_front(Entry{k, key.generation, std::move(bitmap), bytes});
  entries_.emplace(std::move(k), lru_.begin());
  bytes_ += bytes;
  sightings_.erase(lru_.front().key);
}

void FilterCache::evict_to(size_t capacity) {
  while (bytes_ > capacity && !lru_.empty()) {
    Entry& victim = lru_.back();
    bytes_ -= victim.bytes;
    entries_.erase(victim.key);
    lru_.pop_back();
  }
}

CacheStats FilterCache::stats() const {
  std::lock_guard lock(mutex_);
  CacheStats s;
  s.hits = hits_;
  s.misses = misses_;
  s.entries = entries_.size();
  s.bytes = bytes_;
  s.capacity_bytes = capacity_;
  return s;
}

}  // namespace fts
