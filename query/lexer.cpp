#include "query/lexer.h"

#include "query/parser.h"

namespace fts {

namespace {

constexpr std::string_view kTitlePrefix = "title:";
constexpr std::string_view kAbstractPrefix = "abstract:";

bool ends_word(char c) { return is_query_space(c) || c == '(' || c == ')' || c == '"'; }

// A word is an operator, a field prefix with an optional term glued to it,
// or a term. Only the exact uppercase spellings are operators, and only a
// lowercase title:/abstract: at the start of the word is a field, so that
// text like "Star Wars: Episode IV" searches as typed.
void push_word(std::vector<QueryToken>& tokens, std::string_view word, size_t position) {
  using Kind = QueryToken::Kind;
  if (word == "AND") {
    tokens.push_back({Kind::kAnd, word, position});
  } else if (word == "OR") {
    tokens.push_back({Kind::kOr, word, position});
  } else if (word == "NOT") {
    tokens.push_back({Kind::kNot, word, position});
  } else {
    for (auto [prefix, field] : {std::pair{kTitlePrefix, Field::kTitle},
                                 std::pair{kAbstractPrefix, Field::kAbstract}}) {
      if (word.starts_with(prefix)) {
        tokens.push_back({Kind::kField, word.substr(0, prefix.size()), position, field});
        if (word.size() > prefix.size()) {
          tokens.push_back({Kind::kTerm, word.substr(prefix.size()), position + prefix.size()});
        }
        return;
      }
    }
    tokens.push_back({Kind::kTerm, word, position});
  }
}

}  // namespace

std::vector<QueryToken> lex_query(std::string_view text) {
  using Kind = QueryToken::Kind;
  std::vector<QueryToken> tokens;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (is_query_space(c)) {
      ++i;
    } else if (c == '(' || c == ')') {
      tokens.push_back({c == '(' ? Kind::kLParen : Kind::kRParen, text.substr(i, 1), i});
      ++i;
    } else if (c == '"') {
      const size_t close = text.find('"', i + 1);
      if (close == std::string_view::npos) throw QuerySyntaxError("unterminated phrase", i);
      tokens.push_back({Kind::kPhrase, text.substr(i + 1, close - i - 1), i});
      i = close + 1;
    } else if (c == '-') {
      // Only reached at the start of a token: inside a word '-' is text.
      tokens.push_back({Kind::kNot, text.substr(i, 1), i});
      ++i;
    } else {
      size_t end = i;
      while (end < text.size() && !ends_word(text[end])) ++end;
      push_word(tokens, text.substr(i, end - i), i);
      i = end;
    }
  }
  return tokens;
}

}  // namespace fts
