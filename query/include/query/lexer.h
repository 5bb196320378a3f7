// Tokens of the query language (../shared/peers/README.md, "Query syntax").
// The lexer only splits; the parser gives the tokens their meaning.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "index/format/fields.h"

namespace fts {

struct QueryToken {
  enum class Kind {
    kTerm,    // a run of characters other than whitespace ( ) " (text = it)
    kPhrase,  // text between a pair of quotes (text = it, quotes excluded)
    kLParen,
    kRParen,
    kAnd,     // the word AND
    kOr,      // the word OR
    kNot,     // the word NOT, or a '-' that starts a token (text = spelling)
    kField,   // the prefix title: or abstract: of a word (field = which)
  };
  Kind kind = Kind::kTerm;
  std::string_view text;  // a view into the query text
  size_t position = 0;    // byte offset in the query
  Field field = Field::kAny;
};

// The query's whitespace: exactly the ASCII set of C isspace(), so that
// non-ASCII spaces (NBSP, ...) are text and the analyzer decides about them.
constexpr bool is_query_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Splits text into tokens. Throws QuerySyntaxError("unterminated phrase")
// at the opening quote of a phrase without a closing one. The views point
// into text, which must outlive the tokens.
std::vector<QueryToken> lex_query(std::string_view text);

}  // namespace fts
