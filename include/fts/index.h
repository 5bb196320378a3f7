// Searching an index: open it, parse or pass queries, read results.
//   auto index = fts::Index::open("wiki-index");
//   fts::Results r = index.search("title:cat OR \"wild cat\" -dog", {.limit = 5});
//   for (const fts::Hit& h : r.hits) std::cout << h.title << '\n';
// The query language is the contract's (DESIGN.md): words, "phrases",
// title:/abstract: fields, AND (implicit), OR, NOT or -, parentheses.
#pragma once

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

struct SearchOptions {
  size_t limit = 10;
  size_t offset = 0;
  enum class Sort { kScore, kDocId } sort = Sort::kScore;
  bool stored_fields = true;  // fill title, url and snippet of each hit
  size_t snippet_chars = 200;
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
};

struct Results {
  uint64_t total_hits = 0;
  std::vector<Hit> hits = {};  // at most limit, after offset
};

// The filter cache of an open index (bitmaps of recurring costly subqueries).
struct CacheStats {
  uint64_t hits = 0, misses = 0, entries = 0, bytes = 0, capacity_bytes = 0;
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
  Results search(std::string_view query, const SearchOptions& options = {}) const;
  Results search(const Query& query, const SearchOptions& options = {}) const;
  uint64_t count(std::string_view query) const;
  uint64_t count(const Query& query) const;
  // Every matching doc id, ascending.
  std::vector<DocId> matching_docs(const Query& query) const;
  // The plan as text: one line per cursor with its cost and cache use.
  std::string explain(std::string_view query) const;

  uint32_t doc_count() const;  // live docs
  const std::string& dir() const;
  CacheStats cache_stats() const;

 private:
  Index();
  friend struct InternalAccess;
  struct FTS_LOCAL Shared;
  std::shared_ptr<Shared> shared_;
};

}  // namespace fts
