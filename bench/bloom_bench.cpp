// What the segments' Bloom filters save on terms no segment holds: looking
// up absent terms in every segment of an index through
// SegmentReader::lookup (Bloom filter first) beside the dictionary alone
// (TermDictReader::find: a binary search over the block index plus a block
// scan). FTS_INDEX=DIR, best an index of 20 or more segments (bench/living.sh
// makes one).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/fts.h"
#include "index/format/term_dict.h"

namespace {

std::vector<std::string> absent_terms() {
  std::vector<std::string> terms;
  for (int i = 0; i < 1000; ++i) terms.push_back("zqx" + std::to_string(i) + "absent");
  return terms;
}

template <class Lookup>
void run(benchmark::State& state, Lookup lookup) {
  const char* dir = std::getenv("FTS_INDEX");
  if (!dir) {
    state.SkipWithError("set FTS_INDEX to an index directory");
    return;
  }
  fts::Index index = fts::Index::open(dir);
  const auto& segments = fts::InternalAccess::reader(index).segments();
  const std::vector<std::string> terms = absent_terms();
  uint64_t found = 0;
  for (auto _ : state) {
    for (const auto& term : terms)
      for (const auto& s : segments) found += lookup(*s.reader, term);
  }
  if (found != 0) state.SkipWithError("an 'absent' term was found");
  state.counters["segments"] = static_cast<double>(segments.size());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * terms.size() * segments.size()));
}

void BM_AbsentTermsWithBloom(benchmark::State& state) {
  run(state, [](const fts::SegmentReader& r, const std::string& t) { return r.lookup(fts::Field::kAny, t).has_value(); });
}
void BM_AbsentTermsDictionaryOnly(benchmark::State& state) {
  run(state, [](const fts::SegmentReader& r, const std::string& t) {
    return r.terms().find(fts::term_key(fts::Field::kAny, t)).has_value();
  });
}
BENCHMARK(BM_AbsentTermsWithBloom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AbsentTermsDictionaryOnly)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
