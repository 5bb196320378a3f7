// Live docs of a segment: which of its local doc ids are not deleted.
// On disk (NAME.GEN.live, written by the commit of generation GEN): u32 doc
// count, then a Roaring bitmap of the live local ids in CRoaring's portable
// serialization, framed and checksummed like every index file. In memory one
// bit per doc, tested on every hit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "index/format/fields.h"

namespace fts {

std::string live_docs_file(const std::string& dir, const std::string& segment, uint64_t generation);

class LiveDocs {
 public:
  explicit LiveDocs(uint32_t doc_count);  // every doc live
  // Reads and verifies NAME.GEN.live; throws IndexError.
  static LiveDocs read(const std::string& path, uint32_t doc_count);
  void write(const std::string& path) const;  // throws IndexError

  bool is_live(DocId local) const { return local < doc_count_ && (bits_[local >> 6] >> (local & 63) & 1); }
  // The live docs among n ascending ids: one range check for the batch,
  // then a bit test per id without a branch.
  uint64_t count_live(const DocId* docs, size_t n) const {
    if (n == 0) return 0;
    uint64_t live = 0;
    if (docs[n - 1] >= doc_count_) {
      for (size_t i = 0; i < n; ++i) live += is_live(docs[i]);
      return live;
    }
    for (size_t i = 0; i < n; ++i) live += bits_[docs[i] >> 6] >> (docs[i] & 63) & 1;
    return live;
  }
  // Keeps the live docs among n ascending ids, in place and in order, each
  // plus base; returns how many. Without a branch per id: every id is
  // written, and the write position moves on by its live bit.
  size_t keep_live(DocId* docs, size_t n, DocId base) const {
    if (n == 0) return 0;
    size_t kept = 0;
    if (docs[n - 1] >= doc_count_) {
      for (size_t i = 0; i < n; ++i) {
        const DocId d = docs[i];
        docs[kept] = base + d;
        kept += is_live(d);
      }
      return kept;
    }
    for (size_t i = 0; i < n; ++i) {
      const DocId d = docs[i];
      docs[kept] = base + d;
      kept += bits_[d >> 6] >> (d & 63) & 1;
    }
    return kept;
  }
  // Marks local deleted; false when it already was.
  bool remove(DocId local);
  // The live bits of docs [64 i, 64 i + 64): bit j for doc 64 i + j (0
  // past the last doc), for word-wise filters.
  uint64_t word(size_t i) const { return i < bits_.size() ? bits_[i] : 0; }
  // Live docs >= from.
  uint64_t count_from(DocId from) const;
  uint32_t doc_count() const { return doc_count_; }
  uint32_t live_count() const { return live_; }
  uint32_t deleted_count() const { return doc_count_ - live_; }

 private:
  std::vector<uint64_t> bits_;
  uint32_t doc_count_ = 0, live_ = 0;
};

}  // namespace fts
