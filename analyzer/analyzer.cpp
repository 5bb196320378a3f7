// The non-template half of Analyzer: the Snowball stemmer and the stem memo.
#include "analyzer/analyzer.h"

#include <libstemmer.h>

#include <atomic>
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
// Term numbers (Analyzer::for_each_numbered_term) start over past this many
// stems or bytes of them; none of the memo's entries has one until it is
// asked for. Tokens too long for the memo get none: a stream of long junk
// tokens must not fill the numbering.
constexpr std::size_t kMaxTermNumbers = std::size_t{1} << 20;
constexpr std::size_t kMaxTermBytes = std::size_t{16} << 20;
constexpr std::uint32_t kNoTermNumber = Analyzer::kNoNumber;

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
  struct Slot {
    std::uint32_t tag = 0;  // 0: empty
    std::uint32_t offset = 0;
    std::uint16_t key_len = 0;
    std::uint16_t stem_len = 0;
    std::uint32_t number = kNoTermNumber;  // the stem's, once asked for
  };

  // The entry of key, or null. It and its stem (stem_of) stay valid until
  // the next insert.
  Slot* find(std::string_view key, std::uint32_t hash) {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
      Slot& s = slots_[i];
      if (s.tag == 0) return nullptr;
      if (s.tag == hash && s.key_len == key.size() &&
          std::memcmp(arena_.data() + s.offset, key.data(), key.size()) == 0) {
        return &s;
      }
    }
  }

  // key must not be present; key.size() <= kMemoMaxTokenBytes.
  Slot* insert(std::string_view key, std::uint32_t hash, std::string_view stem) {
    if ((size_ + 1) * 2 > slots_.size()) {
      if (size_ >= kMemoMaxEntries)
        clear();
      else
        grow();
    }
    const auto offset = static_cast<std::uint32_t>(arena_.size());
    arena_.append(key);
    arena_.append(stem);
    ++size_;
    return place(Slot{hash, offset, static_cast<std::uint16_t>(key.size()),
                      static_cast<std::uint16_t>(stem.size()), kNoTermNumber});
  }

  void prefetch_slot(std::uint32_t tag) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[tag & (slots_.size() - 1)]);
  }
  // Only the first probe: most lookups end there.
  void prefetch_entry(std::uint32_t tag) const {
    if (slots_.empty()) return;
    const Slot& s = slots_[tag & (slots_.size() - 1)];
    if (s.tag == tag) __builtin_prefetch(arena_.data() + s.offset);
  }

  std::string_view stem_of(const Slot& s) const { return {arena_.data() + s.offset + s.key_len, s.stem_len}; }

  // The numbering started over: no entry's number holds.
  void forget_numbers() {
    for (Slot& s : slots_) s.number = kNoTermNumber;
  }

  // A hash with tag 0 would look like an empty slot.
  static std::uint32_t tag_of(std::uint64_t h) {
    const auto t = static_cast<std::uint32_t>(h);
    return t == 0 ? 1 : t;
  }

 private:
  Slot* place(const Slot& slot) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slot.tag & mask;
    while (slots_[i].tag != 0) i = (i + 1) & mask;
    slots_[i] = slot;
    return &slots_[i];
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 1024 : slots_.size() * 2, Slot{});
    old.swap(slots_);
    for (const Slot& s : old)
      if (s.tag != 0) place(s);
  }

  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    arena_.clear();
    size_ = 0;
  }

  std::vector<Slot> slots_;  // power-of-two size, at most half full
  std::string arena_;
  std::size_t size_ = 0;
};

// The numbers of Analyzer::for_each_numbered_term: stem -> number, dense
// in the order stems are first numbered. Full, it starts over, so it holds
// at most kMaxTermNumbers stems in kMaxTermBytes (about 30 MB in all).
class TermNumbers {
 public:
  // The number of term; kNoTermNumber when term is new and the numbering
  // full: it has then started over (the caller numbers term again).
  std::uint32_t number(std::string_view term) {
    const std::uint32_t tag = StemMemo::tag_of(hash_token(term));
    if (!slots_.empty()) {
      const std::size_t mask = slots_.size() - 1;
      for (std::size_t i = tag & mask; slots_[i].tag != 0; i = (i + 1) & mask) {
        if (slots_[i].tag == tag && text(slots_[i].number) == term) return slots_[i].number;
      }
    }
    if (ends_.size() >= kMaxTermNumbers || arena_.size() + term.size() > kMaxTermBytes) {
      clear();
      return kNoTermNumber;
    }
    if ((ends_.size() + 1) * 2 > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = tag & mask;
    while (slots_[i].tag != 0) i = (i + 1) & mask;
    const auto n = static_cast<std::uint32_t>(ends_.size());
    // Room first: once the text is in, nothing below may throw.
    if (ends_.size() == ends_.capacity()) ends_.reserve(2 * ends_.size() + 1024);
    arena_.append(term);
    ends_.push_back(static_cast<std::uint32_t>(arena_.size()));
    slots_[i] = Slot{tag, n};
    return n;
  }

 private:
  struct Slot {
    std::uint32_t tag = 0;  // 0: empty
    std::uint32_t number = 0;
  };

  std::string_view text(std::uint32_t n) const {
    const std::uint32_t begin = n == 0 ? 0 : ends_[n - 1];
    return {arena_.data() + begin, ends_[n] - begin};
  }

  void grow() {
    std::vector<Slot> old(slots_.empty() ? 1024 : slots_.size() * 2);
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (const Slot& s : old) {
      if (s.tag == 0) continue;
      std::size_t i = s.tag & mask;
      while (slots_[i].tag != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }

  void clear() {
    std::fill(slots_.begin(), slots_.end(), Slot{});
    arena_.clear();
    ends_.clear();
  }

  std::vector<Slot> slots_;  // power-of-two size, at most half full
  std::string arena_;              // the stems back to back
  std::vector<std::uint32_t> ends_;  // where stem n ends in arena_
};

// Each numbering (an Analyzer's, and each time it starts over) gets a
// number of its own, so that tables keyed by term number can tell whether
// they still hold.
std::atomic<std::uint64_t> next_numbering{1};

}  // namespace

struct Analyzer::Impl {
  sb_stemmer* stemmer = nullptr;
  StemMemo memo;
  TermNumbers numbers;
  std::uint64_t numbering = next_numbering++;

  // The number of stem, which its memo entry slot keeps; starting over,
  // every memo entry forgets its number.
  std::uint32_t number(std::string_view stem, StemMemo::Slot* slot) {
    if (slot->number != kNoTermNumber) return slot->number;
    std::uint32_t n = numbers.number(stem);
    if (n == kNoTermNumber) {
      memo.forget_numbers();
      numbering = next_numbering++;
      n = numbers.number(stem);
    }
    slot->number = n;
    return n;
  }

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

// Tokens the memo does not keep are not hashed.
std::uint32_t Analyzer::memo_tag(std::string_view lowered) {
  return lowered.size() > kMemoMaxTokenBytes ? 0 : StemMemo::tag_of(hash_token(lowered));
}
void Analyzer::prefetch_slot(std::uint32_t tag) const { impl_->memo.prefetch_slot(tag); }
void Analyzer::prefetch_entry(std::uint32_t tag) const { impl_->memo.prefetch_entry(tag); }

std::string_view Analyzer::stem(std::string_view lowered, std::uint32_t tag, std::uint32_t* number) {
  if (lowered.size() > kMemoMaxTokenBytes) {
    if (stopwords_.contains(lowered)) return {};
    if (number != nullptr) *number = kNoNumber;
    return impl_->run_stemmer(lowered);
  }
  StemMemo::Slot* slot = impl_->memo.find(lowered, tag);
  if (slot == nullptr) {
    std::string_view stem;
    if (!stopwords_.contains(lowered)) stem = impl_->run_stemmer(lowered);
    slot = impl_->memo.insert(lowered, tag, stem);
  }
  const std::string_view stem = impl_->memo.stem_of(*slot);
  if (number != nullptr && !stem.empty()) *number = impl_->number(stem, slot);
  return stem;
}

std::uint64_t Analyzer::term_numbering() const { return impl_->numbering; }

std::vector<std::string> Analyzer::analyze(std::string_view text) {
  std::vector<std::string> terms;
  for_each_term(text, [&](std::string_view term) { terms.emplace_back(term); });
  return terms;
}

}  // namespace fts
