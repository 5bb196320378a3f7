// Analyzer throughput on real text: the abstracts of the gcide dump.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/analyzer.h"

namespace {

constexpr std::size_t kMaxAbstracts = 50000;

// Decodes the predefined XML entities; the benchmark needs realistic text,
// not a full XML parser (numeric references are left as they are).
std::string decode_entities(std::string_view s) {
  static constexpr std::pair<std::string_view, char> kEntities[] = {
      {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size();) {
    bool replaced = false;
    if (s[i] == '&') {
      for (const auto& [name, c] : kEntities) {
        if (s.substr(i, name.size()) == name) {
          out.push_back(c);
          i += name.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out.push_back(s[i++]);
  }
  return out;
}

// The first kMaxAbstracts non-empty abstracts of ../shared/corpus/gcide.xml.gz,
// or nothing when the corpus is absent.
const std::vector<std::string>& abstracts() {
  static const std::vector<std::string> result = [] {
    std::vector<std::string> out;
    const std::string path = FTS_SOURCE_DIR "/../shared/corpus/gcide.xml.gz";
    gzFile f = gzopen(path.c_str(), "rb");
    if (f == nullptr) {
      std::fprintf(stderr, "analyzer_bench: %s not found; benchmarks skipped\n", path.c_str());
      return out;
    }
    std::string xml;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) xml.append(buf, static_cast<std::size_t>(n));
    gzclose(f);
    const std::string_view open = "<abstract>", close = "</abstract>";
    for (std::size_t pos = 0; out.size() < kMaxAbstracts;) {
      const auto begin = xml.find(open, pos);
      if (begin == std::string::npos) break;
      const auto end = xml.find(close, begin);
      if (end == std::string::npos) break;
      const std::string_view body(xml.data() + begin + open.size(), end - begin - open.size());
      if (!body.empty()) out.push_back(decode_entities(body));
      pos = end + close.size();
    }
    return out;
  }();
  return result;
}

std::size_t total_bytes(const std::vector<std::string>& texts) {
  std::size_t n = 0;
  for (const auto& t : texts) n += t.size();
  return n;
}

void report(benchmark::State& state, std::size_t bytes, std::size_t terms_per_pass) {
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
  state.counters["terms/s"] = benchmark::Counter(
      static_cast<double>(terms_per_pass) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate);
  state.counters["docs"] = static_cast<double>(abstracts().size());
}

// Steady state: one long-lived analyzer with a warm stem memo, as an indexer uses it.
void BM_AnalyzeAbstracts(benchmark::State& state) {
  const auto& texts = abstracts();
  if (texts.empty()) return state.SkipWithError("gcide.xml.gz not found");
  fts::Analyzer analyzer;
  std::size_t terms = 0;
  for (auto _ : state) {
    terms = 0;
    for (const auto& t : texts)
      analyzer.for_each_term(t, [&](std::string_view term) {
        benchmark::DoNotOptimize(term.data());
        ++terms;
      });
  }
  report(state, total_bytes(texts), terms);
}
BENCHMARK(BM_AnalyzeAbstracts)->Unit(benchmark::kMillisecond);

// A fresh analyzer per pass: every distinct word goes through Snowball once.
void BM_AnalyzeAbstractsColdMemo(benchmark::State& state) {
  const auto& texts = abstracts();
  if (texts.empty()) return state.SkipWithError("gcide.xml.gz not found");
  std::size_t terms = 0;
  for (auto _ : state) {
    fts::Analyzer analyzer;
    terms = 0;
    for (const auto& t : texts)
      analyzer.for_each_term(t, [&](std::string_view term) {
        benchmark::DoNotOptimize(term.data());
        ++terms;
      });
  }
  report(state, total_bytes(texts), terms);
}
BENCHMARK(BM_AnalyzeAbstractsColdMemo)->Unit(benchmark::kMillisecond);

// The convenience API, which allocates a vector and a string per term.
void BM_AnalyzeToVector(benchmark::State& state) {
  const auto& texts = abstracts();
  if (texts.empty()) return state.SkipWithError("gcide.xml.gz not found");
  fts::Analyzer analyzer;
  std::size_t terms = 0;
  for (auto _ : state) {
    terms = 0;
    for (const auto& t : texts) terms += analyzer.analyze(t).size();
  }
  report(state, total_bytes(texts), terms);
}
BENCHMARK(BM_AnalyzeToVector)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
