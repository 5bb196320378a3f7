// Parser of the contract query language (../shared/DESIGN.md):
//   or := and ("OR" and)*;  and := unary (["AND"] unary)*;
//   unary := ("NOT" | "-") unary | primary;
//   primary := [field ":"] (word | "\"" text "\"" | "(" or ")")
// Words and phrases are analyzed; what analyzes to nothing is dropped.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "analyzer/analyzer.h"
#include "fts/errors.h"
#include "query/query_node.h"

namespace fts {

// The deepest analyzed tree parse_query returns (a term is depth 1, NOT(term)
// depth 2, ...). Parsing itself is iterative and takes any nesting, but the
// tree's consumers (destructor, to_string, clone, planner, cursors) recurse,
// so a deeper tree is refused with QuerySyntaxError("query nested too
// deeply") at the '(' or NOT/- that crossed the limit. Nesting that analysis
// collapses is free: 10,000 parentheses around one word are a term.
inline constexpr size_t kMaxQueryDepth = 5000;

// Parses and analyzes text. Returns nullptr when the query analyzes to
// nothing (it matches no document). Throws QuerySyntaxError; its position
// is the byte offset of the token at fault: the opening quote of a bad
// phrase, the dangling operator, the field prefix without a term, the '('
// of an empty group or of a group never closed, the stray ')'; 0 for an
// empty query.
std::unique_ptr<QueryNode> parse_query(std::string_view text, Analyzer& analyzer);

}  // namespace fts
