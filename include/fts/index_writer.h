// Builds an index directory: add documents, then commit.
//   fts::IndexWriter writer("wiki-index");
//   writer.add({.title = "Cat", .url = "https://example.org/cat", .abstract = "The cat is ..."});
//   fts::add_dump(writer, "enwiki-abstract.xml.gz");  // fts/dump.h
//   writer.commit();
// Documents are analyzed and inverted in memory, a segment is flushed
// whenever the RAM budget is reached, the segments are merged at commit and
// published by atomically replacing the manifest, so a crash at any moment
// leaves the previous index (or none) intact.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "fts/document.h"
#include "fts/errors.h"
#include "fts/export.h"
#include "fts/stopwords.h"

namespace fts {

struct IndexWriterOptions {
  size_t ram_mb = 512;  // budget of the in-memory inverter (at least 16 is used)
  bool merge = true;    // merge all segments into one at commit
  Stopwords stopwords = Stopwords::defaults();
  unsigned threads = 2;  // analysis runs beside inversion when > 1
  // Also flush a segment after this many docs (0: only the RAM budget);
  // tests use it to get many segments from a small corpus.
  uint32_t max_segment_docs = 0;
};

struct BuildStats {
  uint64_t docs = 0, terms = 0, segments = 0, index_bytes = 0;  // terms: distinct, summed over segments
};

class FTS_API IndexWriter {
 public:
  // Creates dir if needed and locks it (LockError when another writer holds
  // it). The previous index in dir stays readable and is replaced only by
  // commit(). Throws IoError, LockError, ArgumentError (bad options).
  explicit IndexWriter(std::string dir, IndexWriterOptions options = {});
  ~IndexWriter();  // without commit(), nothing becomes visible
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Doc ids are assigned in the order of add(). Thread-compatible: one
  // thread adds. Throws IoError when a segment flush fails.
  void add(Document doc);
  uint64_t docs_added() const;
  // Flushes, merges (unless options.merge is false), fsyncs, swaps the
  // manifest, and removes files no longer referenced. Throws IoError or
  // IndexError; after a failure the previous index is untouched.
  BuildStats commit();

 private:
  struct FTS_LOCAL Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fts
