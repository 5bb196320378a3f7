// Builds an index directory: analyzes and inverts documents in memory,
// flushes a segment whenever the RAM budget is reached, merges the segments
// at commit, and publishes them by atomically replacing the manifest, so a
// crash at any moment leaves the previous index (or none) intact.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "analyzer/stopwords.h"
#include "dump/document.h"

namespace fts {

struct IndexWriterOptions {
  size_t ram_mb = 512;  // budget of the in-memory inverter
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

class IndexWriter {
 public:
  // Creates dir if needed. The previous index in dir stays readable and is
  // replaced only by commit().
  IndexWriter(std::string dir, IndexWriterOptions options = {});
  ~IndexWriter();  // without commit(), nothing becomes visible
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Doc ids are assigned in the order of add(). Thread-compatible: one
  // thread adds.
  void add(Document doc);
  uint64_t docs_added() const;
  // Flushes, merges (unless options.merge is false), fsyncs, swaps the
  // manifest, and removes files no longer referenced. Throws IndexError.
  BuildStats commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fts
