// Micro-benchmarks of the postings codec: FOR block decode per bit width,
// a cursor walking a long list with next(), and advance() at various
// distances (block skipping). items_per_second is decoded ints, docs visited
// or advance() calls.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "index/format/for_codec.h"
#include "index/format/postings.h"

namespace fts {
namespace {

void BM_ForDecode128(benchmark::State& state) {
  const uint32_t width = static_cast<uint32_t>(state.range(0));
  std::mt19937 rng(width);
  std::vector<uint32_t> values(kForMaxValues);
  const uint32_t mask = width == 32 ? 0xFFFFFFFFu : (1u << width) - 1;
  for (auto& v : values) v = rng() & mask;
  std::string enc;
  for_encode(values.data(), kForMaxValues, enc);
  const uint8_t* in = reinterpret_cast<const uint8_t*>(enc.data());
  alignas(16) uint32_t out[kForMaxValues];
  for (auto _ : state) {
    benchmark::DoNotOptimize(for_decode(in, in + enc.size(), kForMaxValues, out));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * kForMaxValues);
}
BENCHMARK(BM_ForDecode128)->DenseRange(1, 32);

void BM_ForDecodeTail100(benchmark::State& state) {
  const uint32_t width = static_cast<uint32_t>(state.range(0));
  std::mt19937 rng(width);
  std::vector<uint32_t> values(100);
  for (auto& v : values) v = rng() & ((1u << width) - 1);
  std::string enc;
  for_encode(values.data(), 100, enc);
  const uint8_t* in = reinterpret_cast<const uint8_t*>(enc.data());
  uint32_t out[kForMaxValues];
  for (auto _ : state) {
    benchmark::DoNotOptimize(for_decode(in, in + enc.size(), 100, out));
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * 100);
}
BENCHMARK(BM_ForDecodeTail100)->Arg(4)->Arg(12);

// One long term: docs with random gaps of 1..2*mean_gap-1, small freqs.
struct LongList {
  VectorSink post, pos;
  TermInfo info;
  std::vector<DocId> docs;
  std::span<const uint8_t> post_bytes() const {
    return {reinterpret_cast<const uint8_t*>(post.bytes.data()), post.bytes.size()};
  }
  std::span<const uint8_t> pos_bytes() const {
    return {reinterpret_cast<const uint8_t*>(pos.bytes.data()), pos.bytes.size()};
  }
};

const LongList& long_list(uint32_t mean_gap) {
  static std::vector<std::unique_ptr<LongList>> cache(64);
  auto& slot = cache[mean_gap % 64];
  if (slot) return *slot;
  slot = std::make_unique<LongList>();
  std::mt19937 rng(mean_gap);
  const size_t n = 1'000'000;
  std::vector<uint32_t> freqs, positions;
  uint64_t doc = 0;
  for (size_t i = 0; i < n; ++i) {
    doc += 1 + rng() % (2 * mean_gap - 1);
    slot->docs.push_back(static_cast<DocId>(doc));
    const uint32_t f = rng() % 4 == 0 ? 2 + rng() % 4 : 1;
    freqs.push_back(f);
    for (uint32_t j = 0; j < f; ++j) positions.push_back(j * 7 + rng() % 7);
  }
  PostingsWriter w(slot->post, &slot->pos);
  slot->info = w.write(slot->docs, freqs, positions);
  return *slot;
}

void BM_CursorNext(benchmark::State& state) {
  const LongList& list = long_list(static_cast<uint32_t>(state.range(0)));
  const bool with_freq = state.range(1) != 0;
  uint64_t docs = 0;
  for (auto _ : state) {
    PostingsCursor c(list.post_bytes(), {}, list.info, "bench");
    uint64_t sum = 0;
    if (with_freq) {
      for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) sum += c.freq();
    } else {
      for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) sum += d;
    }
    benchmark::DoNotOptimize(sum);
    docs += list.info.doc_freq;
  }
  state.SetItemsProcessed(static_cast<int64_t>(docs));
  state.counters["bytes_per_doc"] = double(list.post.bytes.size()) / list.info.doc_freq;
}
BENCHMARK(BM_CursorNext)->ArgsProduct({{2, 8, 64}, {0, 1}})->ArgNames({"gap", "freq"});

// advance() to targets `distance` doc ids apart (the list has mean gap 8, so
// distance / 1024 is roughly the number of blocks jumped per call).
void BM_CursorAdvance(benchmark::State& state) {
  const LongList& list = long_list(8);
  const uint32_t distance = static_cast<uint32_t>(state.range(0));
  uint64_t calls = 0;
  for (auto _ : state) {
    PostingsCursor c(list.post_bytes(), {}, list.info, "bench");
    uint64_t target = 0, sum = 0;
    DocId d;
    while ((d = c.advance(static_cast<DocId>(target))) != kNoMoreDocs) {
      sum += d;
      target = uint64_t(d) + distance;
      ++calls;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(calls));
}
BENCHMARK(BM_CursorAdvance)->Arg(1)->Arg(16)->Arg(128)->Arg(1024)->Arg(8192)->Arg(65536)->Arg(1 << 20);

// Positions of every doc of a long list, as a phrase query reads them.
void BM_CursorPositions(benchmark::State& state) {
  const LongList& list = long_list(8);
  const uint32_t every = static_cast<uint32_t>(state.range(0));
  std::vector<uint32_t> out;
  uint64_t calls = 0;
  for (auto _ : state) {
    PostingsCursor c(list.post_bytes(), list.pos_bytes(), list.info, "bench");
    uint64_t i = 0, sum = 0;
    for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
      if (++i % every) continue;
      c.positions(out);
      sum += out.size();
      ++calls;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(static_cast<int64_t>(calls));
}
BENCHMARK(BM_CursorPositions)->Arg(1)->Arg(10);

void BM_CursorOpen(benchmark::State& state) {
  const LongList& list = long_list(8);
  for (auto _ : state) {
    PostingsCursor c(list.post_bytes(), {}, list.info, "bench");
    benchmark::DoNotOptimize(c.advance(1000));
  }
}
BENCHMARK(BM_CursorOpen);

}  // namespace
}  // namespace fts

BENCHMARK_MAIN();
