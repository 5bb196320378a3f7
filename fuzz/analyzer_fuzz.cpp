// Fuzzes the analyzer (tokenizer, lowercase, stopwords, stemmer) with any
// bytes: no crash, and every emitted term is non-empty and well-formed
// UTF-8, and the terms are the same when the text is analyzed again (the stem
// memo must not change answers). (A stem may equal a stopword: stopwords are
// removed before stemming, as the contract says.)
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/analyzer.h"
#include "fuzz_support.h"

namespace {

bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (size_t k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static fts::Analyzer analyzer;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  std::vector<std::string> first;
  analyzer.for_each_term(text, [&](std::string_view term) {
    if (term.empty()) fts::fuzz::invariant_failed("empty term", text);
    if (!valid_utf8(term)) fts::fuzz::invariant_failed("term is not UTF-8: " + std::string(term), text);
    first.emplace_back(term);
  });
  if (analyzer.analyze(text) != first) fts::fuzz::invariant_failed("second analysis differs", text);
  // A fresh analyzer (empty memo) agrees with the warmed-up one.
  fts::Analyzer fresh;
  if (fresh.analyze(text) != first) fts::fuzz::invariant_failed("fresh analyzer differs", text);
  return 0;
}
