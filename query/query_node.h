// The analyzed query tree: what the parser produces and the planner consumes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "index/document.h"

namespace fts {

struct QueryNode {
  enum class Kind { kTerm, kPhrase, kAnd, kOr, kNot };
  Kind kind = Kind::kTerm;
  Field field = Field::kAny;        // leaves: kAny = title or abstract
  std::vector<std::string> terms;   // leaves: analyzed; 1 for kTerm, >= 2 for kPhrase
  std::vector<std::unique_ptr<QueryNode>> children;  // kAnd/kOr: >= 2; kNot: 1

  // Canonical text, e.g. AND(title:cat, OR("wild cat", dog), NOT(fish)):
  // used for --explain and as the filter-cache key.
  std::string to_string() const;
  std::unique_ptr<QueryNode> clone() const;
};

}  // namespace fts
