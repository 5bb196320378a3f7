// Merge micro-benchmarks over synthetic postings held in memory (written by
// PostingsWriter, read by PostingsCursor): term iteration, leapfrog AND at
// several size ratios, heap vs bitset OR, AND-NOT and the all-docs
// complement. Counts matches without scoring, as count mode does.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include "index/format/file_format.h"
#include "index/format/postings.h"
#include "query/all_docs_cursor.h"
#include "query/and_cursor.h"
#include "query/and_not_cursor.h"
#include "query/bitset_or_cursor.h"
#include "query/or_cursor.h"
#include "query/term_cursor.h"

namespace fts {
namespace {

constexpr uint32_t kDocs = 1'000'000;

// Term i has density kDensities[i] over kDocs docs, independently placed.
constexpr double kDensities[] = {0.5, 0.2, 0.05, 0.01, 0.001, 0.0001};

class Corpus {
 public:
  Corpus() {
    std::mt19937 rng(1);
    PostingsWriter writer(postings_, nullptr);
    for (double density : kDensities) {
      for (int copy = 0; copy < 16; ++copy) add(writer, rng, density);
    }
  }
  // term: density index; copy: which of 16 independent lists of it.
  std::unique_ptr<DocCursor> term(int density, int copy = 0) const {
    const TermInfo& info = infos_[static_cast<size_t>(density * 16 + copy)];
    std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(postings_.bytes.data()), postings_.bytes.size());
    return std::make_unique<TermCursor>(PostingsCursor(bytes, {}, info, "bench"), nullptr, Field::kAny, nullptr, "t");
  }

 private:
  void add(PostingsWriter& writer, std::mt19937& rng, double density) {
    std::vector<DocId> docs;
    std::bernoulli_distribution keep(density);
    for (DocId d = 0; d < kDocs; ++d)
      if (keep(rng)) docs.push_back(d);
    std::vector<uint32_t> freqs(docs.size(), 1);
    infos_.push_back(writer.write(docs, freqs, {}));
  }
  VectorSink postings_;
  std::vector<TermInfo> infos_;
};

const Corpus& corpus() {
  static const Corpus c;
  return c;
}

void report(benchmark::State& state, uint64_t postings) {
  state.counters["postings/s"] = benchmark::Counter(static_cast<double>(postings) * static_cast<double>(state.iterations()),
                                                    benchmark::Counter::kIsRate);
}

void BM_TermIterate(benchmark::State& state) {
  const int t = static_cast<int>(state.range(0));
  uint64_t n = 0;
  for (auto _ : state) {
    auto c = corpus().term(t);
    n = 0;
    for (DocId d = c->doc(); d != kNoMoreDocs; d = c->next()) ++n;
    benchmark::DoNotOptimize(n);
  }
  report(state, n);
}
BENCHMARK(BM_TermIterate)->Arg(0)->Arg(2)->Arg(4);

// AND of density a and density b (b rarer or equal).
void BM_And2(benchmark::State& state) {
  const int a = static_cast<int>(state.range(0)), b = static_cast<int>(state.range(1));
  uint64_t postings = 0;
  for (auto _ : state) {
    std::vector<std::unique_ptr<DocCursor>> kids;
    kids.push_back(corpus().term(a, 0));
    kids.push_back(corpus().term(b, 1));
    postings = kids[0]->cost() + kids[1]->cost();
    AndCursor c(std::move(kids), kDocs);
    benchmark::DoNotOptimize(c.count_remaining());
  }
  report(state, postings);
}
BENCHMARK(BM_And2)->Args({0, 0})->Args({0, 2})->Args({1, 3})->Args({0, 4})->Args({0, 5});

void BM_And3(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<std::unique_ptr<DocCursor>> kids;
    kids.push_back(corpus().term(0, 0));
    kids.push_back(corpus().term(1, 1));
    kids.push_back(corpus().term(2, 2));
    AndCursor c(std::move(kids), kDocs);
    benchmark::DoNotOptimize(c.count_remaining());
  }
}
BENCHMARK(BM_And3);

// OR of n lists of density index t, by heap or by bitset.
template <bool kBitset>
void BM_Or(benchmark::State& state) {
  const int t = static_cast<int>(state.range(0));
  const int n = static_cast<int>(state.range(1));
  uint64_t postings = 0;
  for (auto _ : state) {
    std::vector<std::unique_ptr<DocCursor>> kids;
    postings = 0;
    for (int i = 0; i < n; ++i) {
      kids.push_back(corpus().term(t, i));
      postings += kids.back()->cost();
    }
    if constexpr (kBitset) {
      BitsetOrCursor c(std::move(kids), kDocs, false);
      benchmark::DoNotOptimize(c.count_remaining());
    } else {
      OrCursor c(std::move(kids));
      benchmark::DoNotOptimize(c.count_remaining());
    }
  }
  report(state, postings);
}
BENCHMARK_TEMPLATE(BM_Or, false)->Args({2, 2})->Args({2, 4})->Args({2, 16})->Args({4, 16});
BENCHMARK_TEMPLATE(BM_Or, true)->Args({2, 2})->Args({2, 4})->Args({2, 16})->Args({4, 16});

// include AND-NOT exclude, by density index.
void BM_AndNot(benchmark::State& state) {
  const int a = static_cast<int>(state.range(0)), b = static_cast<int>(state.range(1));
  for (auto _ : state) {
    AndNotCursor c(corpus().term(a, 0), corpus().term(b, 1));
    benchmark::DoNotOptimize(c.count_remaining());
  }
}
BENCHMARK(BM_AndNot)->Args({2, 0})->Args({0, 2})->Args({4, 0});

// NOT t: every doc minus one list (a purely negative query), counted (the
// count is docs minus exclusions) or walked doc by doc.
template <bool kWalk>
void BM_Complement(benchmark::State& state) {
  const int t = static_cast<int>(state.range(0));
  for (auto _ : state) {
    AndNotCursor c(std::make_unique<AllDocsCursor>(kDocs), corpus().term(t, 0));
    uint64_t n = 0;
    if constexpr (kWalk) {
      for (DocId d = c.doc(); d != kNoMoreDocs; d = c.next()) ++n;
    } else {
      n = c.count_remaining();
    }
    benchmark::DoNotOptimize(n);
  }
  state.counters["docs/s"] = benchmark::Counter(double(kDocs) * double(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK_TEMPLATE(BM_Complement, false)->Arg(2)->Arg(0);
BENCHMARK_TEMPLATE(BM_Complement, true)->Arg(2)->Arg(0);

}  // namespace
}  // namespace fts

int main(int argc, char** argv) {
  fts::corpus();  // build the postings before any timing
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
