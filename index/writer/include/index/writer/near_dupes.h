// Near-duplicate clusters by the banding method (Manku, Jain and Das Sarma):
// with distance k the 64 bits split into k + 1 blocks, so two fingerprints
// at most k bits apart agree exactly on at least one block (pigeonhole).
// A table per block, sorted by the block's value, gives the candidates of a
// fingerprint; each is verified by its Hamming distance. Clusters are the
// connected components of "within k bits" (single linkage, by union-find),
// so two docs of one cluster may be further apart than k through others.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "index/format/fingerprints.h"
#include "index/reader/index_reader.h"

namespace fts {

// std::popcount is a libgcc call where the baseline x86-64 has no popcnt
// instruction (3% of a build's profile): counted in registers instead.
inline unsigned hamming(uint64_t a, uint64_t b) {
  uint64_t x = a ^ b;
  x -= (x >> 1) & 0x5555555555555555ull;
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

// The tables of a set of fingerprints (kNoFingerprint entries left out).
// Holds a view of the fingerprints: they must outlive it.
class BandedTable {
 public:
  BandedTable(std::span<const uint64_t> fingerprints, unsigned distance);

  unsigned distance() const { return distance_; }
  // visit(i) for every i whose fingerprint is within distance of fp (some
  // more than once: one per block they agree on).
  template <class Visit>
  void for_each_near(uint64_t fp, Visit&& visit) const;
  // visit(i, j) for enough pairs within distance that their union connects
  // every cluster: all pairs, except that of docs with equal fingerprints
  // only the first is paired with the others.
  template <class Visit>
  void for_each_linking_pair(Visit&& visit) const;

 private:
  uint64_t block(uint64_t fp, unsigned b) const { return (fp >> shift_[b]) & mask_[b]; }
  // The entries of table b whose block equals value.
  std::pair<const uint32_t*, const uint32_t*> run(unsigned b, uint64_t value) const;

  std::span<const uint64_t> fps_;
  unsigned distance_;
  std::vector<unsigned> shift_;
  std::vector<uint64_t> mask_;
  std::vector<std::vector<uint32_t>> tables_;  // per block: indices by (block value, fingerprint, index)
};

// The smallest index of each fingerprint's cluster (its own for none).
std::vector<uint32_t> cluster_fingerprints(std::span<const uint64_t> fingerprints, unsigned distance);

// A segment with cluster ids that a new one's docs are looked up in, with
// the tables of its fingerprints.
struct ClusteredSegment {
  const IndexReader::Segment* segment;
  const BandedTable* table;
};

// The cluster ids of the docs of a commit's new segments (see
// fingerprints.h), one vector per segment: clusters among all their live
// docs at once, as one segment of them would have, joined to the cluster of
// any live doc of others within distance; a cluster that reaches several
// takes the smallest id (theirs are fixed: they stay apart). Deleted docs
// are their own clusters.
std::vector<std::vector<DocId>> cluster_ids_of(std::span<const IndexReader::Segment* const> fresh,
                                               std::span<const ClusteredSegment> others, unsigned distance);

// The live docs of an index with fingerprints, in id order, with their
// cluster: as stored, or (recluster) recomputed over all of them at once at
// distance, as a build of the same docs in one segment would.
struct ClusteredDoc {
  DocId doc;
  DocId cluster;
  uint64_t fingerprint;
};
std::vector<ClusteredDoc> clustered_docs(const IndexReader& index, bool recluster, unsigned distance);

template <class Visit>
void BandedTable::for_each_near(uint64_t fp, Visit&& visit) const {
  if (fp == kNoFingerprint) return;
  for (unsigned b = 0; b < tables_.size(); ++b) {
    auto [first, last] = run(b, block(fp, b));
    for (const uint32_t* it = first; it != last; ++it) {
      if (hamming(fp, fps_[*it]) <= distance_) visit(*it);
    }
  }
}

template <class Visit>
void BandedTable::for_each_linking_pair(Visit&& visit) const {
  for (unsigned b = 0; b < tables_.size(); ++b) {
    const std::vector<uint32_t>& t = tables_[b];
    for (size_t begin = 0, end = 0; begin < t.size(); begin = end) {
      const uint64_t value = block(fps_[t[begin]], b);
      end = begin + 1;
      while (end < t.size() && block(fps_[t[end]], b) == value) ++end;
      // Within the run: equal fingerprints are adjacent; pair each with the
      // first of its kind, then compare the kinds pairwise.
      for (size_t i = begin; i < end;) {
        size_t same = i + 1;
        for (; same < end && fps_[t[same]] == fps_[t[i]]; ++same) visit(t[i], t[same]);
        for (size_t j = same; j < end;) {
          if (hamming(fps_[t[i]], fps_[t[j]]) <= distance_) visit(t[i], t[j]);
          const uint64_t kind = fps_[t[j]];
          while (j < end && fps_[t[j]] == kind) ++j;
        }
        i = same;
      }
    }
  }
}

}  // namespace fts
