// The analyzer's UTF-8 decoder (detail::decode_utf8) against utf8proc's
// own iteration (utf8proc_iterate), on what the tokenizer decodes: every
// non-ASCII sequence of real abstracts (gcide) and of a multilingual text.
// First it checks that both agree on every sequence of one to three bytes
// and on every four-byte sequence with a valid lead (the tokenizer treats
// each byte of a malformed sequence as a separator, so utf8proc's error is
// taken as a one-byte step); then it times them.
#include <benchmark/benchmark.h>
#include <utf8proc.h>
#include <zlib.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analyzer/analyzer.h"

namespace {

using fts::detail::decode_utf8;
using fts::detail::kNotToken;

inline std::size_t decode_utf8proc(const unsigned char* p, const unsigned char* end, char32_t& cp) {
  utf8proc_int32_t c;
  const utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &c);
  if (n <= 0) {
    cp = kNotToken;
    return 1;
  }
  cp = static_cast<char32_t>(c);
  return static_cast<std::size_t>(n);
}

// Counts the sequences on which the two decoders differ (in code point or
// in length).
std::size_t disagreements() {
  std::size_t bad = 0;
  auto compare = [&](const unsigned char* b, std::size_t len) {
    char32_t a = 0, u = 0;
    const std::size_t na = decode_utf8(b, b + len, a), nu = decode_utf8proc(b, b + len, u);
    if (a != u || na != nu) {
      if (bad < 5) {
        std::fprintf(stderr, "differ on");
        for (std::size_t i = 0; i < len; ++i) std::fprintf(stderr, " %02x", b[i]);
        std::fprintf(stderr, ": ours U+%X (%zu bytes), utf8proc U+%X (%zu bytes)\n", unsigned(a), na, unsigned(u), nu);
      }
      ++bad;
    }
  };
  unsigned char b[4];
  for (unsigned x = 0x80; x < 0x1000000; ++x) {  // leads 0x80..0xff with two following bytes, and shorter
    b[0] = static_cast<unsigned char>(x >> 16);
    if (b[0] < 0x80) continue;
    b[1] = static_cast<unsigned char>(x >> 8);
    b[2] = static_cast<unsigned char>(x);
    compare(b, 3);
    if (b[2] == 0) compare(b, 2);
    if (b[1] == 0 && b[2] == 0) compare(b, 1);
  }
  for (unsigned lead = 0xF0; lead <= 0xF7; ++lead)
    for (unsigned x = 0; x < 0x1000000; ++x) {
      b[0] = static_cast<unsigned char>(lead);
      b[1] = static_cast<unsigned char>(x >> 16);
      b[2] = static_cast<unsigned char>(x >> 8);
      b[3] = static_cast<unsigned char>(x);
      compare(b, 4);
    }
  return bad;
}

std::string gcide_abstracts() {
  std::string text;
  gzFile f = gzopen(FTS_SOURCE_DIR "/../shared/corpus/gcide.xml.gz", "rb");
  if (f == nullptr) return text;
  std::string xml;
  char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) xml.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  for (std::size_t pos = 0;;) {
    const auto begin = xml.find("<abstract>", pos);
    if (begin == std::string::npos) break;
    const auto end = xml.find("</abstract>", begin);
    if (end == std::string::npos) break;
    text.append(xml, begin + 10, end - begin - 10);
    pos = end;
  }
  return text;
}

// Words in Latin with diacritics, Greek, Cyrillic, CJK and emoji between
// ASCII, with a malformed byte now and then: what an international dump holds.
std::string multilingual() {
  static const char* words[] = {"Zürich", "naïve", "São", "Ωμέγα", "Москва", "東京都", "日本語", "😀", "İstanbul",
                                "the", "and", "città", "Kraków", "\xff", "Ελλάδα", "北京"};
  std::mt19937 rng(7);
  std::string text;
  while (text.size() < (8u << 20)) {
    text += words[rng() % (sizeof words / sizeof *words)];
    text += ' ';
  }
  return text;
}

template <std::size_t (*Decode)(const unsigned char*, const unsigned char*, char32_t&)>
void decode_all(benchmark::State& state, const std::string& text) {
  if (text.empty()) return state.SkipWithError("gcide.xml.gz not found");
  static const std::size_t bad = disagreements();
  if (bad != 0) return state.SkipWithError("the decoders disagree");
  const auto* begin = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = begin + text.size();
  std::size_t decoded = 0;
  for (auto _ : state) {
    char32_t sum = 0;
    decoded = 0;
    for (const unsigned char* p = begin; p < end;) {
      if (*p < 0x80) {  // the tokenizer's ASCII path decodes nothing
        ++p;
        continue;
      }
      char32_t cp;
      p += Decode(p, end, cp);
      sum += cp;
      ++decoded;
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<int64_t>(text.size()) * state.iterations());
  state.counters["sequences"] = static_cast<double>(decoded);
}

const std::string& gcide() {
  static const std::string text = gcide_abstracts();
  return text;
}
const std::string& international() {
  static const std::string text = multilingual();
  return text;
}

void BM_OursGcide(benchmark::State& s) { decode_all<decode_utf8>(s, gcide()); }
void BM_Utf8procGcide(benchmark::State& s) { decode_all<decode_utf8proc>(s, gcide()); }
void BM_OursMultilingual(benchmark::State& s) { decode_all<decode_utf8>(s, international()); }
void BM_Utf8procMultilingual(benchmark::State& s) { decode_all<decode_utf8proc>(s, international()); }
BENCHMARK(BM_OursGcide)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Utf8procGcide)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_OursMultilingual)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Utf8procMultilingual)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
