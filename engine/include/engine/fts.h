// fts: the embedding API. Open an index, run queries, read results; build an
// index from code. Everything the command-line tools do goes through here.
//
//   auto index = fts::Index::open("wiki-index");
//   fts::Results r = index.search("title:cat OR \"wild cat\" -dog", {.limit = 5});
//   for (const fts::Hit& h : r.hits) std::cout << h.title << '\n';
//
// Errors: fts::IndexError (missing or damaged index, I/O), fts::QuerySyntaxError
// (with position()), fts::DumpError (unreadable dump).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "index/format/fields.h"
#include "dump/dump_reader.h"
#include "index/format/file_format.h"
#include "index/writer/index_writer.h"
#include "query/parser.h"
#include "query/searcher.h"

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
  DocId doc = 0;  // 0-based ordinal of the <doc> in the dump
  float score = 0;
  std::string title, url, snippet;
  std::vector<Highlight> highlights;
};

struct Results {
  uint64_t total_hits = 0;
  std::vector<Hit> hits;
};

// A parsed and analyzed query, reusable across searches.
class Query {
 public:
  const QueryNode* root() const { return root_.get(); }  // null: matches nothing
  std::string to_string() const { return root_ ? root_->to_string() : "<nothing>"; }

 private:
  friend class Index;
  std::shared_ptr<const QueryNode> root_;
};

// An open index. Thread-safe: many threads may search one Index at once.
// Copies share the open files and the filter cache.
class Index {
 public:
  static Index open(const std::string& dir, size_t cache_bytes = 64u << 20);

  Query parse(std::string_view query) const;  // throws QuerySyntaxError
  Results search(std::string_view query, const SearchOptions& options = {}) const;
  Results search(const Query& query, const SearchOptions& options = {}) const;
  uint64_t count(std::string_view query) const;
  uint64_t count(const Query& query) const;
  // Every matching doc id, ascending.
  std::vector<DocId> matching_docs(const Query& query) const;
  std::string explain(std::string_view query) const;

  uint32_t doc_count() const;
  CacheStats cache_stats() const;
  const IndexReader& reader() const;

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

// Builds an index from code: add documents, then commit.
//   fts::IndexWriter writer("wiki-index");
//   writer.add({.title = "Cat", .url = "...", .abstract = "The cat is ..."});
//   writer.commit();
// (fts::IndexWriter and IndexWriterOptions come from index/index_writer.h.)

// Reads every document of dump files into writer; returns the number of
// malformed docs skipped.
uint64_t add_dump(IndexWriter& writer, const std::string& path, const DumpReader::Options& options = {});

}  // namespace fts
