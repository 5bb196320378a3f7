// Searching an index: open it, parse or pass queries, read results.
//   auto index = fts::Index::open("wiki-index");
//   fts::Results r = index.search("title:cat OR \"wild cat\" -dog", {.limit = 5});
//   for (const fts::Hit& h : r.hits) std::cout << h.title << '\n';
// The query language is the contract's (DESIGN.md): words, "phrases",
// title:/abstract: fields, AND (implicit), OR, NOT or -, parentheses.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fts/document.h"
#include "fts/errors.h"
#include "fts/export.h"

namespace fts {

// Options of one search (count and matching_docs use the time budget and
// cancel flag only). Validated by every call: an ArgumentError names the
// option that is out of range.
struct SearchOptions {
  size_t limit = 10;   // hits to return; 0 counts only
  size_t offset = 0;   // hits to skip first (page n of size k: offset n*k, limit k)
  enum class Sort { kScore, kDocId } sort = Sort::kScore;
  // Fill title, url and snippet of each hit. Without them a hit is doc and
  // score only, and Index::load_stored fills one later (lazily, per hit).
  bool stored_fields = true;
  size_t snippet_chars = 200;  // at most kMaxSnippetChars
  // Wall-clock budget of the call (0: none); past it the call throws
  // TimeoutError. Checked every few thousand matching docs.
  std::chrono::milliseconds time_budget{0};
  // When set, another thread may store true to stop the call with
  // CancelledError. Must outlive the call.
  const std::atomic<bool>* cancel = nullptr;

  static constexpr size_t kMaxSnippetChars = 1u << 16;
  // Hits counted exactly before ranking may skip docs that cannot make the
  // top (as Lucene's totalHitsThreshold); past it Results::total_hits is a
  // lower bound, and top-k of common terms gets much faster.
  static constexpr uint64_t kExactHitCount = UINT64_MAX;
  uint64_t total_hits_threshold = kExactHitCount;  // the default: always exact
  // Near-duplicate collapse: keep only the best hit of each cluster of
  // near-duplicates (IndexWriterOptions::near_dupes), with Hit::duplicates
  // and Results::collapsed_hits. Every match is then scored (no pruning) and
  // both counts are exact, whatever total_hits_threshold says. An index
  // built without near-duplicates collapses nothing.
  bool collapse = false;
  // Segments searched at once by search(), count() and matching_docs(), on
  // this many threads:
  // the calling one and those of a pool the process shares (a thread per
  // core). An index of several segments or shards gains; one segment is
  // searched on one thread. Under a total-hits threshold each segment
  // counts exactly up to it, so a lower-bound total can differ.
  unsigned threads = 1;
};

// A span of Hit::snippet to mark as a match (byte offsets).
struct Highlight {
  size_t begin = 0, end = 0;
};

struct Hit {
  DocId doc = 0;  // 0-based ordinal of the document in the order it was added
  float score = 0;  // BM25 (k1 = 1.2, b = 0.75); 0 under Sort::kDocId
  std::string title = {}, url = {}, snippet = {};
  std::vector<Highlight> highlights = {};
  // With SearchOptions::collapse: the other hits of this hit's cluster,
  // folded into it (not returned).
  uint32_t duplicates = 0;
};

struct Results {
  uint64_t total_hits = 0;
  // kAtLeast: total_hits is a lower bound (SearchOptions::total_hits_threshold).
  enum class Relation { kEqual, kAtLeast } total_hits_relation = Relation::kEqual;
  std::vector<Hit> hits = {};  // at most limit, after offset
  // With SearchOptions::collapse: the hits left after collapsing (one per
  // cluster); total_hits counts them before. 0 without collapse.
  uint64_t collapsed_hits = 0;
};

// The filter cache of an open index (bitmaps of recurring costly subqueries).
struct CacheStats {
  uint64_t hits = 0, misses = 0, entries = 0, bytes = 0, capacity_bytes = 0;
};

// The plan of a query as data (Index::explain_tree): one node per cursor,
// under one node per segment, under the query. The text of Index::explain
// is the same tree, one line per node.
struct ExplainNode {
  // "query AND(cat, dog)", "segment DIR/seg-1-0 base=0 docs=300", "and",
  // "or(heap)", "and-not", "minus:", "term title:cat", "phrase \"wild cat\"",
  // "bitmap (from cache)", "all-docs", "empty"...
  std::string what = {};
  uint64_t cost = 0;  // postings the cursor expects to visit (0 for query, segment and minus: nodes)
  std::vector<ExplainNode> children = {};
};

struct InternalAccess;  // the engine's own tools reach the internals through it

// A parsed and analyzed query, reusable across searches of the index that
// parsed it. Cheap to copy.
class FTS_API Query {
 public:
  Query();  // matches nothing
  ~Query();
  Query(const Query&);
  Query& operator=(const Query&);
  // Canonical form, e.g. AND(title:cat, OR("wild cat", dog), NOT(fish));
  // "<nothing>" for a query that analyzed to nothing.
  std::string to_string() const;
  // True when the query analyzed to nothing (only stopwords, say).
  bool matches_nothing() const;

 private:
  friend struct InternalAccess;
  struct FTS_LOCAL Impl;
  std::shared_ptr<const Impl> impl_;
};

// An open index. Thread-safe: many threads may search one Index at once.
// Copies share the open files and the filter cache. An open Index keeps
// answering from the files it opened while a writer replaces the index.
class FTS_API Index {
 public:
  // Throws IndexError (missing, damaged, wrong version).
  static Index open(const std::string& dir, size_t cache_bytes = 64u << 20);
  // The index as its last commit left it. Cheap: segments and live docs that
  // did not change keep their mappings and filter-cache entries; nothing is
  // read when nothing was committed. This Index keeps answering from its
  // own snapshot, whatever commits replace on disk.
  Index reopen() const;
  ~Index();
  Index(const Index&);
  Index& operator=(const Index&);

  Query parse(std::string_view query) const;  // throws QuerySyntaxError
  // Throw QuerySyntaxError, ArgumentError, TimeoutError, CancelledError,
  // IndexError (damage found while reading).
  Results search(std::string_view query, const SearchOptions& options = {}) const;
  Results search(const Query& query, const SearchOptions& options = {}) const;
  uint64_t count(std::string_view query, const SearchOptions& options = {}) const;
  uint64_t count(const Query& query, const SearchOptions& options = {}) const;
  // Every matching doc id, ascending.
  std::vector<DocId> matching_docs(const Query& query, const SearchOptions& options = {}) const;
  // The same into out (cleared first, its capacity kept): a caller that
  // collects millions of ids again and again allocates them once, where
  // fresh memory is costly to touch.
  void matching_docs(const Query& query, std::vector<DocId>& out, const SearchOptions& options = {}) const;
  // The plan as text: one line per cursor with its cost and cache use.
  std::string explain(std::string_view query) const;
  ExplainNode explain_tree(std::string_view query) const;

  // The stored document (title, url, abstract; links and byte_offset are not
  // stored). ArgumentError when doc >= doc_count().
  Document document(DocId doc) const;
  // Fills title, url, snippet and highlights of a hit returned without
  // stored fields (SearchOptions::stored_fields = false), for the query that
  // found it.
  void load_stored(const Query& query, Hit& hit, size_t snippet_chars = 200) const;

  uint32_t doc_count() const;  // live docs
  // Commit generation of the index this Index opened (grows with each commit).
  uint64_t generation() const;
  const std::string& dir() const;
  CacheStats cache_stats() const;

 private:
  Index();
  friend struct InternalAccess;
  struct FTS_LOCAL Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace fts
