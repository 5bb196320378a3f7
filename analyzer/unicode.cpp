// The non-ASCII half of the tokenizer's character tests, on utf8proc's tables.
#include <utf8proc.h>

#include "analyzer/analyzer.h"

namespace fts::detail {

char32_t lowered_token_code_point(char32_t cp) {
  const auto c = static_cast<utf8proc_int32_t>(cp);
  switch (utf8proc_category(c)) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO:
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO:
      // utf8proc_tolower is the simple (one code point) mapping: U+0130 -> 'i'.
      return static_cast<char32_t>(utf8proc_tolower(c));
    default:
      return kNotToken;
  }
}

std::string lowercase_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* const end = p + s.size();
  while (p < end) {
    if (*p < 0x80) {
      out.push_back(static_cast<char>(*p >= 'A' && *p <= 'Z' ? *p + ('a' - 'A') : *p));
      ++p;
      continue;
    }
    char32_t cp;
    const std::size_t n = decode_utf8(p, end, cp);
    if (cp == kNotToken)
      out.push_back(static_cast<char>(*p));
    else
      append_utf8(out, static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp))));
    p += n;
  }
  return out;
}

}  // namespace fts::detail
