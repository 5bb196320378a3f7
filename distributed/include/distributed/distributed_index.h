// mpirun -np R fts-search --distributed: rank r searches shard r of a
// sharded index, and the ranks answer each query as one index over all the
// docs would, to the bit:
//   1. rank 0's query text is broadcast; every rank parses it alike;
//   2. the ranks sum each leaf term's doc frequency (the doc count and field
//      lengths were summed at open), so each scores with the global ones
//      (Elasticsearch's dfs_query_then_fetch);
//   3. each finds its local top offset+limit and counts; rank 0 gathers and
//      merges them (score, then lower id first);
//   4. rank 0 asks each owner for the stored fields of its winning hits.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "distributed/mpi_comm.h"
#include "engine/fts.h"
#include "query/collection_stats.h"

namespace fts {

class DistributedIndex {
 public:
  // Collective. Rank 0 reads DIR/SHARDS and hands it out (the ranks need
  // not share a file system, only hold their shard at DIR/shard-r); the
  // ranks must be as many as the shards. Throws RankError on every rank.
  DistributedIndex(const Comm& comm, const std::string& dir, size_t cache_bytes = 64u << 20);

  // Collective: rank 0 passes the next query (more: whether it has one);
  // afterwards every rank holds it in text. False on every rank when rank 0
  // had none: the end of a query stream.
  bool share_query(std::string& text, bool more) const;

  // Not collective: the same text parses to the same query on every rank
  // (the shards share their stopwords), or throws QuerySyntaxError on
  // every rank alike.
  Query parse(const std::string& text) const { return shard_->parse(text); }
  // Collective; every rank passes the same query and options. Results on
  // rank 0 (elsewhere: empty). Throws RankError, the same on every rank.
  Results search(const Query& query, const SearchOptions& options) const;
  // Collective; the count on every rank.
  uint64_t count(const Query& query, const SearchOptions& options) const;
  // Collective; every matching global id, ascending, on rank 0.
  std::vector<DocId> matching_docs(const Query& query, const SearchOptions& options) const;
  void matching_docs(const Query& query, std::vector<DocId>& out, const SearchOptions& options) const {
    out = matching_docs(query, options);
  }

  const Comm& comm() const { return comm_; }
  const Index& shard() const { return *shard_; }  // this rank's
  DocId base() const { return base_; }          // global id of its doc 0

 private:
  Comm comm_;
  std::optional<Index> shard_;
  DocId base_ = 0;
  CollectionStats totals_;  // doc count and field lengths of all the shards
};

}  // namespace fts
