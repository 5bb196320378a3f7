#include "query/collection_stats.h"

#include <algorithm>

namespace fts {

uint64_t CollectionStats::doc_freq_of(Field field, const std::string& term) const {
  auto it = doc_freq.find(FieldTerm(field, term));
  return it == doc_freq.end() ? 0 : it->second;
}

namespace {

void collect(const QueryNode& node, std::vector<FieldTerm>& out) {
  if (node.kind == QueryNode::Kind::kTerm || node.kind == QueryNode::Kind::kPhrase) {
    for (const auto& t : node.terms) {
      FieldTerm key(node.field, t);
      if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(std::move(key));
    }
  }
  for (const auto& c : node.children) collect(*c, out);
}

}  // namespace

std::vector<FieldTerm> leaf_terms(const QueryNode* query) {
  std::vector<FieldTerm> out;
  if (query) collect(*query, out);
  return out;
}

CollectionStats local_stats(const IndexReader& index, const std::vector<FieldTerm>& terms) {
  CollectionStats stats;
  stats.doc_count = index.doc_count();
  for (int f = 0; f < kFieldCount; ++f) stats.total_length[f] = index.total_field_length(static_cast<Field>(f));
  for (const auto& [field, term] : terms) stats.doc_freq[FieldTerm(field, term)] = index.doc_freq(field, term);
  return stats;
}

}  // namespace fts
