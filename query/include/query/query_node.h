// The analyzed query tree: what the parser produces and the planner consumes.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "index/format/fields.h"

namespace fts {

// Destruction, to_string and clone recurse over children: trees from
// parse_query are at most kMaxQueryDepth (query/parser.h) deep, which keeps
// that recursion well inside any thread's stack. Hand-built trees should
// stay within the same bound.
struct QueryNode {
  enum class Kind { kTerm, kPhrase, kAnd, kOr, kNot };
  Kind kind = Kind::kTerm;
  Field field = Field::kAny;        // leaves: kAny = title or abstract
  std::vector<std::string> terms;   // leaves: analyzed; 1 for kTerm, >= 2 for kPhrase
  std::vector<std::unique_ptr<QueryNode>> children;  // kAnd/kOr: >= 2; kNot: 1
  // Score multiplier: the planner keeps a clause that stood n times in one
  // AND/OR once with weight n (scores are sums, so the ranking is the same
  // as scoring every copy). The parser always gives 1.
  uint32_t weight = 1;

  // Canonical text, e.g. AND(title:cat, OR("wild cat", dog), NOT(fish)),
  // with ^n after a clause of weight n: used for --explain and as the
  // filter-cache key.
  std::string to_string() const;
  std::unique_ptr<QueryNode> clone() const;
};

// to_string of a whole query, where nullptr (a query that analyzed to
// nothing) prints as kMatchesNothingText.
inline constexpr std::string_view kMatchesNothingText = "<nothing>";
std::string query_to_string(const QueryNode* root);

}  // namespace fts
