// The engine as fts's own tools, tests and fuzzers see it: the public API
// (fts/fts.h, all an embedder gets) plus the internals they inspect (the
// reader of an open index, its searcher, a parsed query's tree). Not
// installed: nothing outside this source tree may include it.
#pragma once

#include "fts/fts.h"
#include "dump/dump_reader.h"
#include "index/format/file_format.h"
#include "index/reader/index_reader.h"
#include "query/parser.h"
#include "query/query_node.h"
#include "query/searcher.h"

namespace fts {

struct InternalAccess {
  static const IndexReader& reader(const Index& index);
  static const Searcher& searcher(const Index& index);
  // null: the query analyzed to nothing.
  static const QueryNode* root(const Query& query);
  static Query make_query(std::unique_ptr<const QueryNode> root);
};

}  // namespace fts
