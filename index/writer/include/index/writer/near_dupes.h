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
#include <utility>
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

// Every pair (i < j) of fingerprints within distance, once each, as the
// clustering's tables find them (blocks as below): what `fts-index dupes
// --measure` and the tests hold against brute force. All pairs of a run are
// compared, equal fingerprints too, so it is for samples, not whole indexes.
std::vector<std::pair<uint32_t, uint32_t>> near_pairs(std::span<const uint64_t> fingerprints, unsigned distance,
                                                      unsigned blocks = 0);

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

}  // namespace fts
