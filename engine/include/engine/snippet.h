// Snippets: a window of the abstract around the first matched term, with the
// tokens that analyze to a query term marked (letters and digits only,
// not the punctuation beside them).
#pragma once

#include <string>
#include <vector>

#include "analyzer/analyzer.h"
#include "query/query_node.h"

namespace fts {

struct Highlight;

void make_snippet(const std::string& abstract, const QueryNode* query, Analyzer& analyzer, size_t max_bytes,
                  std::string& snippet, std::vector<Highlight>& highlights);

}  // namespace fts
