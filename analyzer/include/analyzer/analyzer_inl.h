// Template bodies of Analyzer (included at the end of analyzer.h) and the
// small UTF-8 helpers they need. The ASCII path is inline and table driven;
// only non-ASCII code points go out of line to utf8proc.
#pragma once

#include "analyzer/analyzer.h"  // normally it includes us, at its end

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace fts::detail {

// For each ASCII byte: its lowercase when it is a letter or digit (a token
// character), 0 when it separates tokens.
inline constexpr std::array<char, 128> kAsciiTokenLower = [] {
  std::array<char, 128> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<char>(c);
  for (int c = 'a'; c <= 'z'; ++c) t[c] = static_cast<char>(c);
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = static_cast<char>(c - 'A' + 'a');
  return t;
}();

// Returned for anything that is not a token character (also invalid bytes).
inline constexpr char32_t kNotToken = 0xFFFFFFFF;

// Decodes the well-formed UTF-8 sequence starting at p (p < end, *p >= 0x80)
// into cp and returns its length. Anything else (stray continuation byte, bad
// lead byte, truncated, overlong, surrogate, beyond U+10FFFF) consumes exactly
// one byte and yields kNotToken, so every invalid byte becomes a separator and
// decoding resumes at the very next byte. Kept instead of utf8proc_iterate,
// which decodes alike but takes 1.3x as long on multilingual text
// (bench/utf8_decode_bench, BENCHMARKS.md).
inline std::size_t decode_utf8(const unsigned char* p, const unsigned char* end, char32_t& cp) {
  const unsigned lead = p[0];
  const std::size_t avail = static_cast<std::size_t>(end - p);
  auto cont = [&](std::size_t i) { return (p[i] & 0xC0u) == 0x80u; };
  cp = kNotToken;
  if (lead >= 0xC2 && lead <= 0xDF) {
    if (avail >= 2 && cont(1)) {
      cp = ((lead & 0x1Fu) << 6) | (p[1] & 0x3Fu);
      return 2;
    }
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    // E0 needs A0..BF (else overlong), ED needs 80..9F (else a surrogate).
    const unsigned lo = lead == 0xE0 ? 0xA0 : 0x80;
    const unsigned hi = lead == 0xED ? 0x9F : 0xBF;
    if (avail >= 3 && p[1] >= lo && p[1] <= hi && cont(2)) {
      cp = ((lead & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
      return 3;
    }
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    // F0 needs 90..BF (else overlong), F4 needs 80..8F (else > U+10FFFF).
    const unsigned lo = lead == 0xF0 ? 0x90 : 0x80;
    const unsigned hi = lead == 0xF4 ? 0x8F : 0xBF;
    if (avail >= 4 && p[1] >= lo && p[1] <= hi && cont(2) && cont(3)) {
      cp = ((lead & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) |
           (p[3] & 0x3Fu);
      return 4;
    }
  }
  return 1;
}

inline void append_utf8(std::string& out, char32_t cp) {
  char buf[4];
  std::size_t n;
  if (cp < 0x80) {
    buf[0] = static_cast<char>(cp);
    n = 1;
  } else if (cp < 0x800) {
    buf[0] = static_cast<char>(0xC0 | (cp >> 6));
    buf[1] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 2;
  } else if (cp < 0x10000) {
    buf[0] = static_cast<char>(0xE0 | (cp >> 12));
    buf[1] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[2] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 3;
  } else {
    buf[0] = static_cast<char>(0xF0 | (cp >> 18));
    buf[1] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    buf[2] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    buf[3] = static_cast<char>(0x80 | (cp & 0x3F));
    n = 4;
  }
  out.append(buf, n);
}

// The simple lowercase of cp when its general category is L* or N*,
// kNotToken otherwise (utf8proc; defined in unicode.cpp).
char32_t lowered_token_code_point(char32_t cp);

// Simple lowercase of every code point of s; invalid bytes are kept as they
// are. Used for stopword lists, which must match lowercased tokens.
std::string lowercase_utf8(std::string_view s);

}  // namespace fts::detail

namespace fts {

template <class OnToken>
void Analyzer::tokenize(std::string_view text, std::string& scratch, OnToken&& on_token) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* const end = p + text.size();
  scratch.clear();
  auto flush = [&] {
    if (!scratch.empty()) {
      on_token(std::string_view(scratch));
      scratch.clear();
    }
  };
  while (p < end) {
    if (*p < 0x80) {
      if (!detail::kAsciiTokenLower[*p]) {
        flush();
        ++p;
        continue;
      }
      // A run of ASCII token characters: the common case, copied in one go.
      const auto* run = p;
      do ++p;
      while (p < end && *p < 0x80 && detail::kAsciiTokenLower[*p]);
      const std::size_t old = scratch.size();
      scratch.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
      for (std::size_t i = old; i < scratch.size(); ++i)
        scratch[i] = detail::kAsciiTokenLower[static_cast<unsigned char>(scratch[i])];
      continue;
    }
    char32_t cp;
    p += detail::decode_utf8(p, end, cp);
    const char32_t lowered = cp == detail::kNotToken ? cp : detail::lowered_token_code_point(cp);
    if (lowered == detail::kNotToken)
      flush();
    else
      detail::append_utf8(scratch, lowered);
  }
  flush();
}

template <class OnStem>
void Analyzer::for_each_stem(std::string_view text, bool numbered, OnStem&& on_stem) {
  // The memo is a few MB: past the most common words, a lookup misses the
  // cache twice (its slot, then its key). Tokens are gathered in batches
  // (of a bounded size: a text can be huge), and while one token is looked
  // up, the slots of the next kAhead tokens and the keys of the next
  // kAhead / 2 are fetched.
  constexpr std::size_t kAhead = 16, kBatch = 256, kBatchBytes = 16 << 10;
  auto look_up_batch = [&] {
    const std::size_t n = batch_.size();
    for (std::size_t i = 0; i < n && i < kAhead; ++i) prefetch_slot(batch_[i].tag);
    for (std::size_t i = 0; i < n; ++i) {
      if (i + kAhead < n) prefetch_slot(batch_[i + kAhead].tag);
      if (i + kAhead / 2 < n) prefetch_entry(batch_[i + kAhead / 2].tag);
      const PendingToken& token = batch_[i];
      std::uint32_t number = 0;
      const std::string_view term = stem(std::string_view(batch_text_).substr(token.offset, token.size), token.tag,
                                         numbered ? &number : nullptr);
      if (!term.empty()) on_stem(term, number);
    }
    batch_text_.clear();
    batch_.clear();
  };
  batch_text_.clear();
  batch_.clear();
  tokenize(text, scratch_, [&](std::string_view lowered) {
    batch_.push_back({batch_text_.size(), lowered.size(), memo_tag(lowered)});
    batch_text_.append(lowered);
    if (batch_.size() == kBatch || batch_text_.size() >= kBatchBytes) look_up_batch();
  });
  look_up_batch();
}

template <class Emit>
void Analyzer::for_each_term(std::string_view text, Emit&& emit) {
  for_each_stem(text, false, [&](std::string_view term, std::uint32_t) { emit(term); });
}

template <class Emit>
void Analyzer::for_each_numbered_term(std::string_view text, Emit&& emit) {
  for_each_stem(text, true, emit);
}

}  // namespace fts
