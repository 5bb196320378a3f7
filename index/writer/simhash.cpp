#include "index/writer/simhash.h"

#include <algorithm>

#include "index/format/bloom_filter.h"

namespace fts {

namespace {

uint64_t mix(uint64_t h) {  // splitmix64's finalizer
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

void add_features(std::span<const std::string_view> terms, SimHashFeatures features, std::vector<uint64_t>& out) {
  uint64_t previous = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    const uint64_t h = bloom_hash(terms[i]);
    if (features == SimHashFeatures::kTerms) {
      out.push_back(h);
    } else if (i > 0) {
      out.push_back(mix(previous * 0x9e3779b97f4a7c15ull ^ h));
    } else if (terms.size() == 1) {
      out.push_back(h);  // a one-word field is its own shingle
    }
    previous = h;
  }
}

}  // namespace

uint64_t SimHasher::fingerprint(std::span<const std::string_view> title_terms,
                                std::span<const std::string_view> abstract_terms, SimHashFeatures features) {
  hashes_.clear();
  add_features(title_terms, features, hashes_);
  add_features(abstract_terms, features, hashes_);
  if (hashes_.empty()) return 0;
  // Distinct features, weight 1: a repeated word does not outvote the rest.
  std::sort(hashes_.begin(), hashes_.end());
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
  int32_t votes[64] = {};
  for (uint64_t h : hashes_) {
    for (int bit = 0; bit < 64; ++bit) votes[bit] += static_cast<int32_t>((h >> bit) & 1) * 2 - 1;
  }
  uint64_t fp = 0;
  for (int bit = 0; bit < 64; ++bit) fp |= uint64_t(votes[bit] > 0) << bit;
  return fp == 0 ? 1 : fp;  // 0 means "no fingerprint"
}

}  // namespace fts
