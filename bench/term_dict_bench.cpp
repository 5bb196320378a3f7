// Term dictionary and doc store on a real vocabulary: the docs of GCIDE
// (../shared/corpus/gcide.xml.gz), tokenized crudely (lowercased ASCII
// letters and digits) into the three fields' keys with their real doc
// frequencies. Reports bytes per term / per doc and lookup and fetch times.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "index/format/doc_store.h"
#include "index/format/term_dict.h"

namespace fts {
namespace {

struct Corpus {
  std::vector<StoredDoc> docs;
  std::map<std::string, TermInfo> terms;  // key -> info, sorted bytewise
  std::string dict_bytes, store_bytes;
  std::vector<std::string> keys;          // shuffled present keys
  std::vector<std::string> absent;        // keys that are not there
  std::vector<std::string> prefixes;      // 3-byte prefixes of abstract terms
};

std::string between(const std::string& xml, size_t& pos, const std::string& open, const std::string& close) {
  size_t a = xml.find(open, pos);
  if (a == std::string::npos) return "";
  a += open.size();
  size_t b = xml.find(close, a);
  pos = b + close.size();
  return xml.substr(a, b - a);
}

void add_terms(std::map<std::string, TermInfo>& terms, Field field, const std::string& text, std::set<std::string>& seen) {
  std::string word;
  auto flush = [&] {
    if (word.empty()) return;
    std::string key = term_key(field, word);
    if (seen.insert(key).second) ++terms[key].doc_freq;
    ++terms[key].total_freq;
    word.clear();
  };
  for (char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      word.push_back(c);
    } else if (c >= 'A' && c <= 'Z') {
      word.push_back(static_cast<char>(c | 0x20));
    } else {
      flush();
    }
  }
  flush();
}

const Corpus& corpus() {
  static const Corpus* c = [] {
    auto* c = new Corpus;
    std::string path = std::string(FTS_SOURCE_DIR) + "/../shared/corpus/gcide.xml.gz";
    gzFile gz = gzopen(path.c_str(), "rb");
    if (!gz) {
      std::fprintf(stderr, "cannot open %s\n", path.c_str());
      std::exit(1);
    }
    std::string xml;
    char buf[1 << 16];
    for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) xml.append(buf, n);
    gzclose(gz);
    for (size_t pos = 0; (pos = xml.find("<doc>", pos)) != std::string::npos;) {
      StoredDoc d;
      d.title = between(xml, pos, "<title>Wikipedia: ", "</title>");
      d.url = between(xml, pos, "<url>", "</url>");
      d.abstract = between(xml, pos, "<abstract>", "</abstract>");
      std::set<std::string> seen;
      add_terms(c->terms, Field::kTitle, d.title, seen);
      add_terms(c->terms, Field::kAbstract, d.abstract, seen);
      add_terms(c->terms, Field::kAny, d.title + " " + d.abstract, seen);
      c->docs.push_back(std::move(d));
    }
    // Postings and positions offsets grow as a codec's would (~1.5 bytes
    // per posting, ~1.2 per position); kAny has no positions.
    uint64_t post = 0, pos = 0;
    for (auto& [k, v] : c->terms) {
      v.postings_offset = post;
      v.positions_offset = k[0] == 0 ? 0 : pos;
      post += v.doc_freq * 3 / 2 + 2;
      if (k[0] != 0) pos += v.total_freq * 6 / 5 + 1;
    }
    VectorSink dict;
    TermDictWriter w(dict);
    for (const auto& [k, v] : c->terms) w.add(k, v);
    w.finish();
    c->dict_bytes = std::move(dict.bytes);
    VectorSink store;
    DocStoreWriter sw(store);
    for (const auto& d : c->docs) sw.add(d.title, d.url, d.abstract);
    sw.finish();
    c->store_bytes = std::move(store.bytes);

    std::mt19937_64 rng(42);
    for (const auto& kv : c->terms) c->keys.push_back(kv.first);
    std::shuffle(c->keys.begin(), c->keys.end(), rng);
    for (const auto& k : c->keys) {
      std::string a = k + "q";
      if (!c->terms.count(a)) c->absent.push_back(a);
      if (k[0] == 2 && k.size() >= 4) c->prefixes.push_back(k.substr(0, 4));
    }
    return c;
  }();
  return *c;
}

std::span<const uint8_t> as_span(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

void BM_TermDictOpen(benchmark::State& state) {
  const Corpus& c = corpus();
  for (auto _ : state) {
    TermDictReader d(as_span(c.dict_bytes), "bench.dict");
    benchmark::DoNotOptimize(d.size());
  }
  size_t key_bytes = 0;
  for (const auto& kv : c.terms) key_bytes += kv.first.size();
  state.counters["terms"] = static_cast<double>(c.terms.size());
  state.counters["bytes_per_term"] = static_cast<double>(c.dict_bytes.size()) / c.terms.size();
  state.counters["raw_key_bytes_per_term"] = static_cast<double>(key_bytes) / c.terms.size();
}
BENCHMARK(BM_TermDictOpen)->Unit(benchmark::kMicrosecond);

void BM_TermDictFindPresent(benchmark::State& state) {
  const Corpus& c = corpus();
  TermDictReader d(as_span(c.dict_bytes), "bench.dict");
  size_t i = 0;
  for (auto _ : state) {
    auto info = d.find(c.keys[i]);
    benchmark::DoNotOptimize(info);
    if (++i == c.keys.size()) i = 0;
  }
}
BENCHMARK(BM_TermDictFindPresent);

void BM_TermDictFindAbsent(benchmark::State& state) {
  const Corpus& c = corpus();
  TermDictReader d(as_span(c.dict_bytes), "bench.dict");
  size_t i = 0;
  for (auto _ : state) {
    auto info = d.find(c.absent[i]);
    benchmark::DoNotOptimize(info);
    if (++i == c.absent.size()) i = 0;
  }
}
BENCHMARK(BM_TermDictFindAbsent);

void BM_TermDictPrefix(benchmark::State& state) {
  const Corpus& c = corpus();
  TermDictReader d(as_span(c.dict_bytes), "bench.dict");
  size_t i = 0, found = 0;
  for (auto _ : state) {
    d.for_each_prefix(c.prefixes[i], [&](std::string_view, const TermInfo&) { ++found; });
    if (++i == c.prefixes.size()) i = 0;
  }
  state.counters["terms_per_prefix"] = benchmark::Counter(static_cast<double>(found) / state.iterations());
}
BENCHMARK(BM_TermDictPrefix);

void BM_TermDictIterateAll(benchmark::State& state) {
  const Corpus& c = corpus();
  TermDictReader d(as_span(c.dict_bytes), "bench.dict");
  for (auto _ : state) {
    size_t n = 0;
    for (auto it = d.begin(); it.valid(); it.next()) ++n;
    benchmark::DoNotOptimize(n);
  }
  state.SetItemsProcessed(state.iterations() * c.terms.size());
}
BENCHMARK(BM_TermDictIterateAll)->Unit(benchmark::kMillisecond);

void BM_DocStoreGetRandom(benchmark::State& state) {
  const Corpus& c = corpus();
  DocStoreReader r(as_span(c.store_bytes), "bench.docs");
  std::mt19937 rng(1);
  for (auto _ : state) {
    StoredDoc d = r.get(rng() % r.size());
    benchmark::DoNotOptimize(d);
  }
  size_t raw = 0;
  for (const auto& d : c.docs) raw += d.title.size() + d.url.size() + d.abstract.size();
  state.counters["docs"] = static_cast<double>(c.docs.size());
  state.counters["bytes_per_doc"] = static_cast<double>(c.store_bytes.size()) / c.docs.size();
  state.counters["compression_ratio"] = static_cast<double>(raw) / c.store_bytes.size();
}
BENCHMARK(BM_DocStoreGetRandom)->Unit(benchmark::kMicrosecond);

void BM_DocStoreGetSequential(benchmark::State& state) {
  const Corpus& c = corpus();
  DocStoreReader r(as_span(c.store_bytes), "bench.docs");
  DocId doc = 0;
  for (auto _ : state) {
    StoredDoc d = r.get(doc);
    benchmark::DoNotOptimize(d);
    if (++doc == r.size()) doc = 0;
  }
}
BENCHMARK(BM_DocStoreGetSequential)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace fts

BENCHMARK_MAIN();
