// fts-index build --distributed: run under mpirun, each rank builds one
// shard of a sharded index (distributed/distributed_build.h).
#pragma once

#include <string>
#include <vector>

#include "fts/dump.h"
#include "fts/index_writer.h"

namespace fts {
// threads_given: --threads was on the command line; else each rank takes
// its share of this machine's cores. Returns the exit code; only rank 0
// prints. Throws cli::UsageError when fts-index was built without MPI.
int build_distributed_cli(const std::string& dir, const std::vector<std::string>& dumps, IndexWriterOptions options,
                          bool threads_given, const DumpOptions& dump);
}  // namespace fts
