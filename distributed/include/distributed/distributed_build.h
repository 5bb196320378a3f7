// mpirun -np R fts-index build --distributed: R ranks build the R shards of
// a sharded index (index/format/shard_manifest.h) at once. The dumps are cut
// into R contiguous slices (dump/dump_slices.h), so no rank reads past the
// docs it indexes except to skip to its slice, and rank r's docs get the
// global ordinals after rank r-1's, as one build would give them. Each rank
// writes DIR/shard-r with an IndexWriter of its own; when every rank has
// committed, rank 0 writes DIR/SHARDS, the step that makes the index
// visible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "distributed/mpi_comm.h"
#include "fts/dump.h"
#include "fts/index_writer.h"

namespace fts {

struct DistributedBuildReport {
  uint64_t docs = 0, skipped = 0;          // over all ranks
  uint64_t rank_docs = 0;                  // this rank's shard
  double rank_seconds = 0;                 // this rank's slice: reading to committing
};

// Collective. writer: each rank's IndexWriter options (mode is replace).
// Near-duplicate clusters do not span shards: each rank clusters its own
// docs. Throws RankError, the same on every rank, when any rank failed;
// then DIR holds no SHARDS, and no index is visible there.
DistributedBuildReport build_distributed(const Comm& comm, const std::string& dir,
                                         const std::vector<std::string>& dumps, IndexWriterOptions writer,
                                         const DumpOptions& dump);

}  // namespace fts
