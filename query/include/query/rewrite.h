// Query rewriting, once per query before planning: the tree the planner
// sees matches the same docs with the same scores as the query as written.
#pragma once

#include <memory>

#include "query/query_node.h"

namespace fts {

// The tree without double negations, with nested ANDs / ORs flattened and
// with repeated clauses of one AND / OR kept once: `a OR a OR b` becomes
// `OR(a^2, b)`, `a AND a` becomes `a^2`, as Lucene sums the scores of
// duplicate clauses. Scores are sums over the positive leaves, so a weight
// multiplies every leaf below it and neither rewrite changes a result or a
// score. Clauses that match nothing go: an AND holding x and NOT x (as
// `fish NOT fishing` analyzes), and with it an OR clause of that shape; null
// when the whole query matches nothing. Throws std::invalid_argument for a
// malformed hand-built tree.
std::unique_ptr<QueryNode> simplify_query(const QueryNode& node);

}  // namespace fts
