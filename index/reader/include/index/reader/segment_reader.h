// One immutable segment: its term dictionary, postings, positions, field
// lengths and doc store, memory-mapped. Doc ids are local to the segment
// (0..doc_count()-1); the index adds the segment's base.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "index/format/bloom_filter.h"
#include "index/format/doc_store.h"
#include "index/format/fields.h"
#include "index/format/file_format.h"
#include "index/format/fingerprints.h"
#include "index/format/norms.h"
#include "index/format/postings.h"
#include "index/format/term_dict.h"
#include "index/format/url_table.h"

namespace fts {

// The payloads of a segment's files, wherever they live (mapped files, or
// memory in tests).
struct SegmentData {
  std::span<const uint8_t> postings, positions, term_dict, doc_store, norms;
  std::span<const uint8_t> bloom;  // empty: no Bloom filter
  std::span<const uint8_t> urls;   // empty: no url table
  std::span<const uint8_t> fingerprints, cluster_ids;  // empty: none
  std::string name;  // for error messages
  // The format versions of the .post, .dict and .norms files.
  uint32_t postings_version = kFormatVersion, dict_version = kFormatVersion, norms_version = kFormatVersion;
};

// Which near-duplicate files a segment has: none (written before them or
// without them), its fingerprints only (flushed, not yet committed: the
// commit gives it cluster ids), or both.
enum class NearDupeFiles { kNone, kFingerprints, kClusters };

class SegmentReader {
 public:
  // Maps DIR/NAME.{post,pos,dict,docs,norms} and, with bloom, NAME.bloom,
  // with urls, NAME.urls, with dupes NAME.sim (and NAME.dup); throws IndexError.
  static std::shared_ptr<const SegmentReader> open(const std::string& dir, const std::string& name,
                                                   bool bloom = true, bool urls = true,
                                                   NearDupeFiles dupes = NearDupeFiles::kNone);
  // Over payloads owned by the caller (tests); throws IndexError.
  explicit SegmentReader(const SegmentData& data);
  ~SegmentReader();

  const std::string& name() const { return data_.name; }
  uint32_t doc_count() const { return doc_count_; }

  // Postings of term in field, or nullopt when the term does not occur.
  // kAny postings have no positions; kTitle and kAbstract do.
  std::optional<TermInfo> lookup(Field field, std::string_view term) const;
  // The same by dictionary key (term_key()) and its bloom_hash(), made once
  // for the lookups of one term in every segment.
  std::optional<TermInfo> lookup_key(std::string_view key, uint64_t hash) const {
    if (!bloom_.may_contain_hash(hash)) return std::nullopt;  // absent, without touching the dictionary
    return dict_.find(key);
  }
  PostingsCursor cursor(Field field, const TermInfo& info) const;

  // Analyzed length of a field of doc (kAny: title + abstract), saturated at
  // 65535, and the segment's total per field, for BM25.
  // Inline: a scored hit reads it.
  uint32_t field_length(Field field, DocId doc) const {
    if (doc >= doc_count_) return 0;
    if (field == Field::kAny && any_lengths_) {
      const uint8_t length = any_lengths_[doc];
      if (length != kLongAnyLength) return length;
      if (has_long_table()) return long_any_lengths_.get(doc);
    }
    uint16_t v[2];
    std::memcpy(v, norms_ + size_t(doc) * 4, 4);
    switch (field) {
      case Field::kTitle:
        return v[0];
      case Field::kAbstract:
        return v[1];
      default:
        return uint32_t(v[0]) + v[1];
    }
  }
  uint64_t total_field_length(Field field) const { return total_length_[static_cast<int>(field)]; }
  // The shortest field_length of any doc of the segment.
  uint32_t shortest_field_length(Field field) const { return shortest_length_[static_cast<int>(field)]; }

  const TermDictReader& terms() const { return dict_; }
  const BloomFilter& bloom() const { return bloom_; }
  const DocStoreReader& doc_store() const { return store_; }
  // The local docs whose stored url is url, ascending, through the url
  // table (none without one: callers check has_url_table() and read the
  // doc store of an older segment themselves, once for all their urls).
  std::vector<DocId> docs_with_url(std::string_view url) const;
  bool has_url_table() const { return !urls_.empty(); }
  const UrlTable& url_table() const { return urls_; }
  // SimHash fingerprints and cluster ids by local doc (empty: none).
  const Fingerprints& fingerprints() const { return fingerprints_; }
  const ClusterIds& cluster_ids() const { return cluster_ids_; }
  // Verifies every file's checksum and structural invariants (fts-index check).
  void check() const;
  // Verifies the checksums of the doc store and the url table, which a
  // merge copies without reading their docs (IndexError on damage).
  void verify_stored_checksums() const;
  // Verifies the norms' checksum, which opening does not read (a merge
  // does, before it writes the lengths under a new one).
  void verify_norms_checksum() const;
  // Drop the pages of the postings, positions and dictionary, or of the doc
  // store, from the resident set (MappedFile::release_pages): a merge reads
  // them on threads of their own (the postings on two), and a page dropped
  // under another thread's reads faults back in from the page cache, as
  // the mappings are read-only. A reader opened on spans rather than files
  // has none to drop.
  void release_postings_pages() const noexcept;
  void release_stored_pages() const noexcept;

 struct Files;

 private:
  std::unique_ptr<Files> files_;  // null when built over caller-owned data
  SegmentData data_;
  std::string post_path_;  // NAME.post, which cursors name in their errors
  uint32_t doc_count_ = 0;
  uint64_t total_length_[3] = {0, 0, 0};
  uint32_t shortest_length_[3] = {0, 0, 0};
  const uint8_t* norms_ = nullptr;  // doc_count_ x {u16 title, u16 abstract}
  const uint8_t* any_lengths_ = nullptr;  // doc_count_ bytes (index/format/norms.h); null before format 5
  LongAnyLengths long_any_lengths_;  // the exact kAny lengths of the docs of byte 255 (format 7 on)
  bool has_long_table() const { return data_.norms_version >= kFirstVersionWithLongTable; }
  TermDictReader dict_;
  BloomFilter bloom_;
  DocStoreReader store_;
  UrlTable urls_;
  Fingerprints fingerprints_;
  ClusterIds cluster_ids_;
};

}  // namespace fts
