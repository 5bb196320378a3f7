#include "fts_index_distributed.h"

#include <algorithm>
#include <thread>

#include <fmt/core.h>

#include "common/cli.h"
#ifdef FTS_WITH_MPI
#include "distributed/distributed_build.h"
#endif

namespace fts {

#ifdef FTS_WITH_MPI

int build_distributed_cli(const std::string& dir, const std::vector<std::string>& dumps, IndexWriterOptions options,
                          bool threads_given, const DumpOptions& dump) {
  int argc = 0;
  char** argv = nullptr;
  MpiSession mpi(argc, argv);
  const Comm comm(MPI_COMM_WORLD);
  if (!threads_given) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    options.threads = std::max(1u, cores / static_cast<unsigned>(comm.ranks_on_this_machine()));
  }
  const double start = cli::now_seconds();
  try {
    const DistributedBuildReport report = build_distributed(comm, dir, dumps, options, dump);
    // Each rank's figures, for the slowest to show.
    const std::vector<uint64_t> ranks = comm.all_gather(
        {report.rank_docs, static_cast<uint64_t>(report.rank_seconds * 1e3), static_cast<uint64_t>(cli::peak_rss_mb())});
    if (comm.is_root()) {
      fmt::print(stderr, "fts-index: {} docs, {} skipped, {} shard(s), {:.2f} s\n", report.docs, report.skipped,
                 comm.size(), cli::now_seconds() - start);
      for (int r = 0; r < comm.size(); ++r) {
        fmt::print(stderr, "  {}: {} docs, {:.2f} s, peak memory {} MB\n", "shard-" + std::to_string(r), ranks[3 * r],
                   ranks[3 * r + 1] / 1e3, ranks[3 * r + 2]);
      }
    }
    return cli::kOk;
  } catch (const std::exception& e) {
    // Every rank has the same error (Comm::agree): one line says it.
    if (comm.is_root()) cli::print_error("fts-index", e.what());
    return cli::kRuntimeError;
  }
}

#else

int build_distributed_cli(const std::string&, const std::vector<std::string>&, IndexWriterOptions, bool,
                          const DumpOptions&) {
  throw cli::UsageError("--distributed needs MPI, and this fts-index was built without it (cmake -DFTS_MPI=ON)");
}

#endif

}  // namespace fts
