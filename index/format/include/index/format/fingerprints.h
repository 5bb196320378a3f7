// A segment's near-duplicate data. On disk, framed like every index file:
//   NAME.sim  u32 docs | u32 0 | docs x u64 SimHash fingerprint (0: none)
//   NAME.dup  u32 docs | u32 distance | docs x u32 cluster id
// The fingerprints depend on the docs alone and are written with the
// segment; the cluster ids depend on the other segments of the index and
// are written by the commit that publishes the segment. A doc's cluster id
// is the global id of its cluster's first doc (its own id when it has no
// near-duplicate), so docs of one cluster share it in every segment and a
// query collapses by comparing ids, never fingerprints.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "index/format/fields.h"

namespace fts {

inline constexpr uint64_t kNoFingerprint = 0;  // a doc with no terms
// k + 1 blocks of at least 4 bits: beyond, a block matches too many docs.
inline constexpr unsigned kMaxDupeDistance = 15;

void write_fingerprints(const std::string& path, std::span<const uint64_t> fingerprints);  // IoError
void write_cluster_ids(const std::string& path, std::span<const DocId> cluster_ids, unsigned distance);

// Views of the payloads (the mapping outlives them).
class Fingerprints {
 public:
  Fingerprints() = default;  // none (a segment written before fingerprints)
  Fingerprints(std::span<const uint8_t> payload, uint32_t doc_count, const std::string& path_for_errors);
  bool empty() const { return values_.empty(); }
  uint64_t operator[](DocId doc) const { return values_[doc]; }
  std::span<const uint64_t> values() const { return values_; }

 private:
  std::span<const uint64_t> values_;
};

class ClusterIds {
 public:
  ClusterIds() = default;
  ClusterIds(std::span<const uint8_t> payload, uint32_t doc_count, const std::string& path_for_errors);
  bool empty() const { return ids_.empty(); }
  size_t size() const { return ids_.size(); }
  DocId operator[](DocId doc) const { return ids_[doc]; }
  unsigned distance() const { return distance_; }

 private:
  std::span<const DocId> ids_;
  unsigned distance_ = 0;
};

}  // namespace fts
