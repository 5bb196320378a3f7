// Near-duplicate clusters by the banding method (Manku, Jain and Das Sarma):
// with distance k the 64 bits split into m > k blocks, so two fingerprints
// at most k bits apart agree exactly on at least m - k of them
// (pigeonhole). A table per choice of m - k blocks, sorted by those blocks'
// bits, holds every such pair in one run of equal keys; each candidate is
// verified by its Hamming distance. Clusters are the connected components
// of "within k bits" (single linkage, by union-find), so two docs of one
// cluster may be further apart than k through others.
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

// The k + 1 tables of one block each of a set of fingerprints
// (kNoFingerprint entries left out), to find every fingerprint near a given
// one: all the pairs within distance of a sample, which `fts-index dupes
// --measure` counts against brute force. Holds a view of the fingerprints:
// they must outlive it.
class BandedTable {
 public:
  BandedTable(std::span<const uint64_t> fingerprints, unsigned distance);

  unsigned distance() const { return distance_; }
  // visit(i) for every i whose fingerprint is within distance of fp (some
  // more than once: one per block they agree on).
  template <class Visit>
  void for_each_near(uint64_t fp, Visit&& visit) const;
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
// blocks: m, from distance + 1 to 64 (0: chosen for the count, see
// cluster_blocks); threads: how many tables at once (util/parallel_for.h).
std::vector<uint32_t> cluster_fingerprints(std::span<const uint64_t> fingerprints, unsigned distance,
                                           unsigned blocks = 0, unsigned threads = 1);

// The blocks that cluster n fingerprints at distance k, and look them up
// among `known` others, in the least time, by a model: with m blocks there
// are C(m, m - k) tables, each a pass over the fingerprints, keyed on about
// 64 (m - k) / m bits, so that spread fingerprints meet about
// (n^2 / 2 + n known) / 2^(key bits) others in their runs. k + 1 blocks suit
// up to about 10^5 docs; beyond, runs of 2^12 keys hold hundreds of docs
// each and the distances grow as n^2, which more, longer-keyed tables
// avoid (k = 4 at 6M docs: 15 tables of 21-bit keys compute about 10^8
// distances where 5 tables of 12 bits compute 10^10).
unsigned cluster_blocks(size_t n, unsigned k, size_t known = 0);

// The cluster ids of the docs of a commit's new segments (see
// fingerprints.h), one vector per segment: clusters among all their live
// docs at once, as one segment of them would have, joined to the cluster of
// any live doc of the known segments (those with cluster ids) within
// distance; a cluster that reaches several takes the smallest id (theirs
// are fixed: they stay apart). Deleted docs are their own clusters.
// blocks and threads as for cluster_fingerprints.
std::vector<std::vector<DocId>> cluster_ids_of(std::span<const IndexReader::Segment* const> fresh,
                                               std::span<const IndexReader::Segment* const> known, unsigned distance,
                                               unsigned blocks = 0, unsigned threads = 1);

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

}  // namespace fts
