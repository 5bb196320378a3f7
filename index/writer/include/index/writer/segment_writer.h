// Writes one segment: stored fields stream to the doc store as documents
// arrive; postings, positions, the term dictionary and the norms are written
// from the inverter at finish(). Files appear under their final names only
// when each is complete; the manifest decides whether they are live.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "index/format/doc_store.h"
#include "index/format/manifest.h"
#include "index/format/url_table.h"
#include "index/format/word_pairs.h"
#include "index/writer/inverter.h"
#include "index/reader/index_reader.h"

namespace fts {

class SegmentWriter {
 public:
  // With fingerprints, also NAME.sim: each added doc's AnalyzedDoc::fingerprint.
  // pair_words (null: none) must outlive the writer.
  SegmentWriter(std::string dir, std::string name, bool fingerprints = false, const PairWords* pair_words = nullptr);
  ~SegmentWriter();
  void add(const AnalyzedDoc& doc);
  uint32_t doc_count() const { return inverter_.doc_count(); }
  size_t memory_bytes() const { return inverter_.memory_bytes(); }
  uint64_t term_count() const { return inverter_.term_count(); }
  SegmentInfo finish();

 private:
  std::string dir_, name_;
  Inverter inverter_;
  std::unique_ptr<FileWriter> docs_file_;
  std::unique_ptr<DocStoreWriter> docs_;
  UrlTableWriter urls_;
  bool fingerprinted_;
  std::vector<uint64_t> fingerprints_;
};

// K-way merge of segments (in ascending, disjoint doc-id order) into one new
// segment, their deleted docs purged; merged docs keep their global ids
// (NAME.ids when they are not consecutive), and their fingerprints
// (NAME.sim) when every input has them. Every doc deleted: nothing is
// written and the result holds 0 docs. With threads > 1 the postings are
// merged in two halves of the terms at once (the doc store always has a
// thread of its own); the files are the same either way.
SegmentInfo merge_segments(const std::string& dir, const std::vector<IndexReader::Segment>& inputs,
                           const std::string& name, unsigned threads = 1);
// The term where merge_segments splits the postings between two threads:
// about half of them below it. Empty when there is no such term.
std::string merge_split_term(const std::vector<IndexReader::Segment>& inputs);

// Writes the norms file of a segment from per-doc {title, abstract} lengths.
void write_norms(const std::string& path, const std::vector<uint32_t>& lengths);

}  // namespace fts
