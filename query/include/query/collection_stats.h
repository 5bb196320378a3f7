// The statistics BM25 weighs a query's leaves with: by default those of the
// index searched. A distributed search passes the ones its ranks agreed on
// for the query, so that each shard scores as one index over all the docs
// would (Elasticsearch's dfs_query_then_fetch).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "index/format/fields.h"
#include "index/reader/index_reader.h"
#include "query/query_node.h"

namespace fts {

using FieldTerm = std::pair<Field, std::string>;

struct CollectionStats {
  uint64_t doc_count = 0;  // BM25's N: deleted docs included until merged away
  std::array<uint64_t, kFieldCount> total_length = {};
  // Docs holding each leaf term of the query (the terms of phrases too).
  std::map<FieldTerm, uint64_t> doc_freq;

  // The same division as IndexReader::average_field_length, so the scores
  // are the same to the bit.
  double average_field_length(Field field) const {
    return doc_count ? double(total_length[static_cast<int>(field)]) / double(doc_count) : 0.0;
  }
  // A leaf term it was not given counts as held by no doc.
  uint64_t doc_freq_of(Field field, const std::string& term) const;
};

// Every leaf term of query, each once, in the order they first occur: the
// same list on every rank that parsed the same text.
std::vector<FieldTerm> leaf_terms(const QueryNode* query);

// index's statistics for the leaf terms: one rank's share of the global ones.
CollectionStats local_stats(const IndexReader& index, const std::vector<FieldTerm>& terms);

}  // namespace fts
