// Parser of the contract query language (../shared/DESIGN.md):
//   or := and ("OR" and)*;  and := unary (["AND"] unary)*;
//   unary := ("NOT" | "-") unary | primary;
//   primary := [field ":"] (word | "\"" text "\"" | "(" or ")")
// Words and phrases are analyzed; what analyzes to nothing is dropped.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "analyzer/analyzer.h"
#include "query/query_node.h"

namespace fts {

// A malformed query: the message is one of the contract's (empty query,
// unterminated phrase, empty phrase, unbalanced parenthesis, empty group,
// dangling operator AND|OR|NOT|-, field without term), position is the
// 0-based byte offset in the query where the problem was found.
class QuerySyntaxError : public std::runtime_error {
 public:
  QuerySyntaxError(std::string message, size_t position)
      : std::runtime_error(std::move(message)), position_(position) {}
  size_t position() const { return position_; }

 private:
  size_t position_;
};

// Parses and analyzes text. Returns nullptr when the query analyzes to
// nothing (it matches no document). Throws QuerySyntaxError.
std::unique_ptr<QueryNode> parse_query(std::string_view text, Analyzer& analyzer);

}  // namespace fts
