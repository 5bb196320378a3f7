// The manifest names the live segments of an index, their doc ids and live
// docs, the next doc id to give, the analyzer's stopwords and the words
// whose pairs are indexed. Replacing it
// (write MANIFEST.tmp, fsync, rename) is the one atomic step of a commit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/stopwords.h"
#include "index/format/fields.h"

namespace fts {

inline constexpr const char* kManifestName = "MANIFEST";

struct SegmentInfo {
  std::string name;
  uint32_t doc_count = 0;  // docs in the segment's files, deleted ones included
  // Global id of the segment's doc 0. Segments are listed in ascending id
  // order and never overlap; a segment's ids are base + local id unless it
  // has an id map (NAME.ids: a merge purged deleted docs in between).
  DocId base = 0;
  bool has_id_map = false;
  // NAME.bloom: a Bloom filter over the dictionary keys (segments written
  // before filters have none).
  bool has_bloom = true;
  // NAME.urls: the url table (segments written before url tables have none).
  bool has_urls = true;
  // NAME.sim and NAME.dup: near-duplicate fingerprints and cluster ids
  // (segments written before them, or without them, have none).
  bool has_dupes = false;
  // 0: every doc is live; else NAME.GEN.live holds the live docs, written by
  // the commit of that generation.
  uint64_t live_generation = 0;
  uint32_t deleted = 0;  // docs not live
  uint32_t live_count() const { return doc_count - deleted; }
};

struct Manifest {
  uint64_t generation = 0;
  std::vector<std::string> stopwords;
  // The words whose adjacent pairs every segment indexes (word_pairs.h);
  // empty: none (and for an index written before pairs).
  std::vector<std::string> pair_words;
  std::vector<SegmentInfo> segments;
  // Ids are never reused: the next doc gets this id (one past the highest
  // ever given, deleted or not).
  DocId next_doc_id = 0;
};

std::string manifest_path(const std::string& dir);
// Throws IndexError; a missing manifest says the directory holds no index.
Manifest read_manifest(const std::string& dir);
bool manifest_exists(const std::string& dir);
void write_manifest(const std::string& dir, const Manifest& manifest);

}  // namespace fts
