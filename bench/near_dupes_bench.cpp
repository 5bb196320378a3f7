// The clustering of near-duplicates (index/writer/near_dupes.h) at each
// layout of its tables: the live fingerprints of FTS_INDEX=DIR clustered
// at distance 4 with m = 5 (the plain banding: 5 tables of one block) to
// 8 blocks (C(m, m - 4) tables keyed on m - 4 blocks), beside the layout
// that cluster_blocks chooses for their count.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <vector>

#include "engine/fts.h"
#include "index/writer/near_dupes.h"

namespace {

constexpr unsigned kDistance = 4;

const std::vector<uint64_t>* fingerprints(benchmark::State& state) {
  static std::vector<uint64_t> fps;
  static bool loaded = false;
  if (!loaded) {
    loaded = true;
    if (const char* dir = std::getenv("FTS_INDEX")) {
      const fts::Index index = fts::Index::open(dir);
      for (const fts::ClusteredDoc& d : fts::clustered_docs(fts::InternalAccess::reader(index), false, 0)) {
        fps.push_back(d.fingerprint);
      }
    }
  }
  if (fps.empty()) state.SkipWithError("set FTS_INDEX to an index with fingerprints");
  return &fps;
}

void BM_Cluster(benchmark::State& state) {
  const std::vector<uint64_t>* fps = fingerprints(state);
  if (fps->empty()) return;
  const auto blocks = static_cast<unsigned>(state.range(0));
  size_t clustered = 0;
  for (auto _ : state) {
    const std::vector<uint32_t> root = fts::cluster_fingerprints(*fps, kDistance, blocks);
    clustered = 0;
    for (uint32_t i = 0; i < root.size(); ++i) clustered += root[i] != i;
    benchmark::DoNotOptimize(clustered);
  }
  state.counters["docs"] = static_cast<double>(fps->size());
  state.counters["blocks"] = blocks ? blocks : fts::cluster_blocks(fps->size(), kDistance);
  state.counters["joined"] = static_cast<double>(clustered);
}
BENCHMARK(BM_Cluster)->Arg(0)->DenseRange(kDistance + 1, kDistance + 4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
