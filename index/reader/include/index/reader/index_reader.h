// An open index: a snapshot of the segments the manifest names, in doc-id
// order, with their live docs. Opening reads the manifest and each segment's
// headers and term-block index only, whatever the index size; reopening
// after a commit maps only the segments and live docs that changed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/stopwords.h"
#include "index/format/word_pairs.h"
#include "index/format/doc_id_map.h"
#include "index/format/live_docs.h"
#include "index/format/manifest.h"
#include "index/reader/segment_reader.h"

namespace fts {

class IndexReader {
 public:
  struct Segment {
    std::shared_ptr<const SegmentReader> reader;
    DocId base = 0;                        // global id of the segment's doc 0
    std::shared_ptr<const DocIdMap> ids;   // null: ids are base + local
    std::shared_ptr<const LiveDocs> live;  // null: every doc is live
    uint64_t live_generation = 0;
    // Added to the ids the segment's files hold (id map, cluster ids): the
    // base of its shard in a sharded index, else 0.
    DocId offset = 0;

    DocId global(DocId local) const { return ids ? offset + ids->global(local) : base + local; }
    bool is_live(DocId local) const { return !live || live->is_live(local); }
    uint32_t live_count() const { return live ? live->live_count() : reader->doc_count(); }
    DocId last() const { return global(reader->doc_count() - 1); }  // highest global id
    std::optional<DocId> local(DocId global) const;                 // of a global id, if held
    // The global id naming local's near-duplicate cluster: its own id in a
    // segment without cluster ids.
    // A doc past the ids (damaged postings) stands alone.
    DocId cluster(DocId local) const {
      return local < reader->cluster_ids().size() ? offset + reader->cluster_ids()[local] : global(local);
    }
  };

  // Throws IndexError (missing, damaged, wrong version) with the file.
  // A sharded index (index/format/shard_manifest.h) opens as one: its
  // shards' segments in global id order, each shard's ids moved by its base.
  static std::shared_ptr<const IndexReader> open(const std::string& dir);
  // The index as its manifest is now, sharing with previous the mapped
  // files of unchanged segments and the live docs of unchanged generations;
  // previous itself when nothing changed. Throws IndexError.
  // The segments manifest names (a commit being built), sharing with reuse
  // what is unchanged.
  static std::shared_ptr<const IndexReader> open(const std::string& dir, const Manifest& manifest,
                                                 const IndexReader* reuse = nullptr);
  static std::shared_ptr<const IndexReader> reopen(const std::shared_ptr<const IndexReader>& previous);

  const std::string& dir() const { return dir_; }
  // The shards of a sharded index, each open on its own; empty otherwise.
  const std::vector<std::shared_ptr<const IndexReader>>& shards() const { return shards_; }
  // Changes with every commit (of a sharded index: of any shard).
  uint64_t generation() const { return generation_; }
  // Docs in the segments, deleted ones included until a merge purges them:
  // BM25's N (index/FORMAT.md, "Scoring with deletes").
  uint32_t doc_count() const { return doc_count_; }
  uint32_t live_count() const { return live_count_; }
  DocId next_doc_id() const { return next_doc_id_; }
  const std::vector<Segment>& segments() const { return segments_; }
  const Stopwords& stopwords() const { return stopwords_; }
  // Every segment indexes the pairs of these words (index/format/word_pairs.h):
  // of a sharded index, those that every shard pairs.
  const PairWords& pair_words() const { return pair_words_; }

  // Across all segments, deleted docs included, for BM25. With entries,
  // each segment's dictionary entry of the term is appended to it, in
  // segment order, for a caller that opens its postings next.
  uint64_t doc_freq(Field field, std::string_view term,
                    std::vector<std::optional<TermInfo>>* entries = nullptr) const;
  uint64_t total_field_length(Field field) const { return total_length_[static_cast<int>(field)]; }
  double average_field_length(Field field) const;

  // The segment and local id of a global id, if a segment holds it (live or not).
  std::optional<std::pair<const Segment*, DocId>> find(DocId doc) const;
  bool is_live(DocId doc) const;
  // Stored fields of a global doc id.
  // Throws IndexError for an id outside the index (damaged postings).
  StoredDoc stored(DocId doc) const;
  // Verifies every file (fts-index check); throws IndexError at the first damage.
  void check() const;

  IndexReader(std::string dir, const Manifest& manifest, std::vector<Segment> segments);
  // A sharded index over its open shards, at the bases SHARDS gives them.
  IndexReader(std::string dir, std::vector<std::shared_ptr<const IndexReader>> shards, const std::vector<DocId>& bases);

 private:
  std::string dir_;
  uint64_t generation_;
  DocId next_doc_id_;
  std::vector<Segment> segments_;
  std::vector<std::shared_ptr<const IndexReader>> shards_;
  Stopwords stopwords_;
  PairWords pair_words_;
  uint32_t doc_count_ = 0, live_count_ = 0;
  uint64_t total_length_[kFieldCount] = {0, 0, 0};
};

}  // namespace fts
