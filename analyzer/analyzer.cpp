// The non-template half of Analyzer: the Snowball stemmer and the stem memo.
#include "analyzer/analyzer.h"

#include <libstemmer.h>

#include <climits>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

namespace fts {

namespace {

// The vocabulary of text is Zipfian: a few thousand words make up most
// tokens, so the memo answers nearly every token. When it holds this many
// entries it is simply cleared (the hot words come back at once), which keeps
// it at a few MB however large the input is. 1<<17 holds the whole working
// vocabulary of a large dictionary dump (gcide: ~124k distinct words).
constexpr std::size_t kMemoMaxEntries = std::size_t{1} << 17;
// Longer tokens are rare (identifiers, garbage): stem them without caching.
constexpr std::size_t kMemoMaxTokenBytes = 40;

// Multiply-xorshift over 8-byte words: tokens are short, so a short, branch-
// light hash beats a general-purpose one here.
std::uint64_t hash_token(std::string_view s) {
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  auto mix = [&](std::uint64_t w) {
    h = (h ^ w) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  };
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    mix(w);
  }
  if (n > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, p, n);
    mix(w);
  }
  h ^= h >> 29;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 32);
}

// Open-addressing map lowercased token -> stem ("" for a stopword). Keys and
// stems live back to back in one arena, so a hit costs one hash, one probe
// sequence in a flat array and one memcmp, and inserts allocate only when the
// arena or the table grows. Views it returns stay valid until the next insert.
class StemMemo {
 public:
  bool find(std::string_view key, std::uint32_t hash, std::string_view& stem) const {
    if (slots_.empty()) return false;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.tag == 0) return false;
      if (s.tag == hash && s.key_len == key.size() &&
          std::memcmp(arena_.data() + s.offset, key.data(), key.size()) == 0) {
        stem = {arena_.data() + s.offset + s.key_len, s.stem_len};
        return true;
      }
    }
  }

  // key must not be present; key.size() <= kMemoMaxTokenBytes.
  std::string_view insert(std::string_view key, std::uint32_t hash, std::string_view stem) {
    if ((size_ + 1) * 2 > slots_.size()) {
      if (size_ >= kMemoMaxEntries)
        clear();
      else
        grow();
    }
    const auto offset = static_cast<std::uint32_t>(arena_.size());
    arena_.append(key);
    arena_.append(stem);
    place(Slot{hash, offset, static_cast<std::uint16_t>(key.size()),
               static_cast<std::uint16_t>(stem.size())});
    ++size_;
    return {arena_.data() + offset + key.size(), stem.size()};
  }

  // A hash with tag 0 would look like an empty slot.
  static std::uint32_t tag_of(std::uint64_t h) {
    const auto t = static_cast<std::uint32_t>(h);
    return t == 0 ? 1 : t;
  }

 private:
  struct Slot {
    std::uint32_t tag;  // 0: empty
    std::uint32_t offset;
    std::uint16_t key_len;
    std::uint16_t stem_len;
  };

  void place(const Slot& slot) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slot.tag & mask;
    while (slots_[i].tag != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 1024 : slots_.size() * 2, Slot{0, 0, 0, 0});
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.tag != 0) place(s);
  }

  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{0, 0, 0, 0});
    arena_.clear();
    size_ = 0;
  }

  std::vector<Slot> slots_;  // power-of-two size, at most half full
  std::string arena_;
  std::size_t size_ = 0;
};

}  // namespace

struct Analyzer::Impl {
  sb_stemmer* stemmer = nullptr;
  StemMemo memo;

  Impl() : stemmer(sb_stemmer_new("english", "UTF_8")) {
    if (stemmer == nullptr)
      throw std::runtime_error("libstemmer: cannot create the Snowball 'english' UTF-8 stemmer");
  }
  ~Impl() { sb_stemmer_delete(stemmer); }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // Valid until the next call into the stemmer.
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
    return impl_->run_stemmer(lowered);
  }
  const std::uint32_t tag = StemMemo::tag_of(hash_token(lowered));
  std::string_view stem;
  if (impl_->memo.find(lowered, tag, stem)) return stem;
  if (!stopwords_.contains(lowered)) stem = impl_->run_stemmer(lowered);
  return impl_->memo.insert(lowered, tag, stem);
}

std::vector<std::string> Analyzer::analyze(std::string_view text) {
  std::vector<std::string> terms;
  for_each_term(text, [&](std::string_view term) { terms.emplace_back(term); });
  return terms;
}

}  // namespace fts
