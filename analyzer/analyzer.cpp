// The non-template half of Analyzer: the Snowball stemmer and the stem memo.
#include "analyzer/analyzer.h"

#include <libstemmer.h>

#include <climits>
#include <functional>
#include <new>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace fts {

namespace {

// The vocabulary of text is Zipfian: a few thousand words make up most
// tokens, so a memo of this size answers nearly every token while staying a
// few MB. When it fills up it is simply cleared (the hot words come back at
// once); that keeps memory bounded on arbitrarily large inputs.
constexpr std::size_t kMemoMaxEntries = 1 << 16;
// Longer tokens are rare (identifiers, garbage): stem them without caching.
constexpr std::size_t kMemoMaxTokenBytes = 40;

struct StringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

}  // namespace

struct Analyzer::Impl {
  sb_stemmer* stemmer = nullptr;
  // lowercased token -> stem; "" for a stopword.
  std::unordered_map<std::string, std::string, StringHash, std::equal_to<>> memo;

  Impl() : stemmer(sb_stemmer_new("english", "UTF_8")) {
    if (stemmer == nullptr)
      throw std::runtime_error("libstemmer: cannot create the Snowball 'english' UTF-8 stemmer");
  }
  ~Impl() { sb_stemmer_delete(stemmer); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  std::string_view run_stemmer(std::string_view lowered) {
    if (lowered.size() > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("analyzer: token of " + std::to_string(lowered.size()) +
                              " bytes is too long to stem");
    const sb_symbol* out = sb_stemmer_stem(
        stemmer, reinterpret_cast<const sb_symbol*>(lowered.data()), static_cast<int>(lowered.size()));
    if (out == nullptr) throw std::bad_alloc();
    return {reinterpret_cast<const char*>(out),
            static_cast<std::size_t>(sb_stemmer_length(stemmer))};
  }
};

Analyzer::Analyzer(Stopwords stopwords)
    : stopwords_(std::move(stopwords)), impl_(std::make_unique<Impl>()) {}
Analyzer::~Analyzer() = default;
Analyzer::Analyzer(Analyzer&&) noexcept = default;
Analyzer& Analyzer::operator=(Analyzer&&) noexcept = default;

std::string_view Analyzer::stem(std::string_view lowered) {
  if (lowered.size() > kMemoMaxTokenBytes) {
    if (stopwords_.contains(lowered)) return {};
    // Valid until the next call into the stemmer, i.e. through emit().
    return impl_->run_stemmer(lowered);
  }
  auto& memo = impl_->memo;
  if (auto it = memo.find(lowered); it != memo.end()) return it->second;
  if (memo.size() >= kMemoMaxEntries) memo.clear();
  std::string value;
  if (!stopwords_.contains(lowered)) value = impl_->run_stemmer(lowered);
  // Node-based map: the stored string does not move until the next clear().
  return memo.emplace(std::string(lowered), std::move(value)).first->second;
}

std::vector<std::string> Analyzer::analyze(std::string_view text) {
  std::vector<std::string> terms;
  for_each_term(text, [&](std::string_view term) { terms.emplace_back(term); });
  return terms;
}

}  // namespace fts
