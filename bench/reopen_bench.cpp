// Index::reopen() after a small commit (one doc added, one deleted) on an
// existing index: FTS_INDEX=DIR (a copy: the benchmark commits to it).
// Unchanged segments keep their mappings, so the time should not grow with
// the index.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "engine/fts.h"

namespace {

void BM_ReopenAfterSmallCommit(benchmark::State& state) {
  const char* dir = std::getenv("FTS_INDEX");
  if (!dir) {
    state.SkipWithError("set FTS_INDEX to an index directory (it is committed to)");
    return;
  }
  fts::Index index = fts::Index::open(dir);
  fts::IndexWriter writer(dir, {.merge = false});
  uint64_t n = 0;
  for (auto _ : state) {
    state.PauseTiming();
    writer.add({.title = "reopen bench", .url = "reopen-" + std::to_string(n), .abstract = "a small commit"});
    writer.delete_doc(static_cast<fts::DocId>(n * 7919 % fts::InternalAccess::reader(index).next_doc_id()));
    writer.commit();
    ++n;
    state.ResumeTiming();
    index = index.reopen();
    benchmark::DoNotOptimize(index.doc_count());
  }
  state.counters["segments"] = static_cast<double>(fts::InternalAccess::reader(index).segments().size());
}
BENCHMARK(BM_ReopenAfterSmallCommit)->Unit(benchmark::kMillisecond)->Iterations(20);

}  // namespace

BENCHMARK_MAIN();
