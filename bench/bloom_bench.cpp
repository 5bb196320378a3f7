// What the segments' Bloom filters save on terms no segment holds, and what
// they cost on terms that are there: looking up terms in every segment of
// an index through SegmentReader::lookup (Bloom filter first) beside the
// dictionary alone (TermDictReader::find: a binary search over the block
// index plus a block scan). FTS_INDEX=DIR, best an index of 20 or more
// segments (bench/living.sh makes one).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "engine/fts.h"
#include "index/format/term_dict.h"

namespace {

std::vector<std::string> absent_keys(const fts::SegmentReader&) {
  std::vector<std::string> keys;
  for (int i = 0; i < 1000; ++i) keys.push_back(fts::term_key(fts::Field::kAny, "zqx" + std::to_string(i) + "absent"));
  return keys;
}

// Every 100th key of the first segment's dictionary (present there, and
// in the others as often as the corpus makes it).
std::vector<std::string> present_keys(const fts::SegmentReader& first) {
  std::vector<std::string> keys;
  size_t i = 0;
  for (auto it = first.terms().begin(); it.valid() && keys.size() < 1000; it.next(), ++i)
    if (i % 100 == 0) keys.emplace_back(it.key());
  return keys;
}

// lookup(segment, key) for every key of keys(first segment) in every segment.
template <class Keys, class Lookup>
void run(benchmark::State& state, Keys keys_of, Lookup lookup, bool absent) {
  const char* dir = std::getenv("FTS_INDEX");
  if (!dir) {
    state.SkipWithError("set FTS_INDEX to an index directory");
    return;
  }
  fts::Index index = fts::Index::open(dir);
  const auto& segments = fts::InternalAccess::reader(index).segments();
  const std::vector<std::string> keys = keys_of(*segments.front().reader);
  uint64_t found = 0;
  for (auto _ : state) {
    for (const auto& key : keys)
      for (const auto& s : segments) found += lookup(*s.reader, key);
  }
  if (absent && found != 0) state.SkipWithError("an 'absent' term was found");
  const auto lookups = static_cast<int64_t>(state.iterations() * keys.size() * segments.size());
  state.counters["segments"] = static_cast<double>(segments.size());
  state.counters["found"] = lookups > 0 ? double(found) / double(lookups) : 0;  // the share of lookups that found the key
  state.SetItemsProcessed(lookups);
}

// A key is the field byte, then the term.
bool with_bloom(const fts::SegmentReader& r, const std::string& key) {
  return r.lookup(static_cast<fts::Field>(key[0]), std::string_view(key).substr(1)).has_value();
}
bool dictionary_only(const fts::SegmentReader& r, const std::string& key) { return r.terms().find(key).has_value(); }

void BM_AbsentTermsWithBloom(benchmark::State& state) { run(state, absent_keys, with_bloom, true); }
void BM_AbsentTermsDictionaryOnly(benchmark::State& state) { run(state, absent_keys, dictionary_only, true); }
void BM_PresentTermsWithBloom(benchmark::State& state) { run(state, present_keys, with_bloom, false); }
void BM_PresentTermsDictionaryOnly(benchmark::State& state) { run(state, present_keys, dictionary_only, false); }
BENCHMARK(BM_AbsentTermsWithBloom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AbsentTermsDictionaryOnly)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PresentTermsWithBloom)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PresentTermsDictionaryOnly)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
