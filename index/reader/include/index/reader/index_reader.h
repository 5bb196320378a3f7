// An open index: the live segments named by the manifest, in doc-id order.
// Opening reads the manifest and each segment's headers and term-block
// index only, whatever the index size.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/stopwords.h"
#include "index/reader/segment_reader.h"

namespace fts {

class IndexReader {
 public:
  struct Segment {
    std::shared_ptr<const SegmentReader> reader;
    DocId base = 0;  // global id of the segment's doc 0
  };

  // Throws IndexError (missing, damaged, wrong version) with the file.
  static std::shared_ptr<const IndexReader> open(const std::string& dir);

  const std::string& dir() const { return dir_; }
  // Changes with every commit: filter-cache entries are keyed by it.
  uint64_t generation() const { return generation_; }
  uint32_t doc_count() const { return doc_count_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const Stopwords& stopwords() const { return stopwords_; }

  // Across all segments, for BM25.
  uint64_t doc_freq(Field field, std::string_view term) const;
  double average_field_length(Field field) const;

  // Stored fields of a global doc id.
  // Throws IndexError for an id outside the index (damaged postings).
  StoredDoc stored(DocId doc) const;
  // Verifies every file (fts-index check); throws IndexError at the first damage.
  void check() const;

  IndexReader(std::string dir, uint64_t generation, std::vector<Segment> segments, Stopwords stopwords);

 private:
  std::string dir_;
  uint64_t generation_;
  std::vector<Segment> segments_;
  Stopwords stopwords_;
  uint32_t doc_count_ = 0;
  uint64_t total_length_[3] = {0, 0, 0};
};

}  // namespace fts
