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

// For matching without scores, a simplified tree (above) without the
// groups another clause implies: an OR under an AND that holds one of the
// AND's other clauses, and an AND under an OR that holds one of the OR's
// other clauses (x AND (x OR y) and x OR (x AND y) both match as x). The
// docs matched are the same; the scores are not, so a ranked search keeps
// the tree as simplified. `work (work OR remote)` is then counted as `work`
// (its doc freq) instead of through a disjunction.
std::unique_ptr<QueryNode> drop_implied_clauses(std::unique_ptr<QueryNode> node);

}  // namespace fts
