// Stored fields (title, url, abstract) for display and snippets, compressed
// with zstd in blocks of documents, with an offset table for random access.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "index/format/fields.h"
#include "index/format/file_format.h"

struct ZSTD_CCtx_s;

namespace fts {

struct StoredDoc {
  std::string title, url, abstract;
};

// A block of a store as written: its zstd frame, how many bytes that holds
// uncompressed, and how many docs.
struct StoredBlock {
  std::span<const uint8_t> frame;
  uint64_t raw_size = 0;
  uint32_t doc_count = 0;
};

class DocStoreWriter {
 public:
  // The store must be the whole payload of out, as for TermDictWriter.
  explicit DocStoreWriter(Sink& out);
  ~DocStoreWriter();
  void add(const std::string& title, const std::string& url, const std::string& abstract);
  // Appends another store's block (its docs come next) as it is, without
  // decompressing it: a merge copies the blocks of a segment without
  // deletes. Docs added before it close a block of their own first.
  void add_block(const StoredBlock& block);
  void finish();  // last block and the offset table

 private:
  struct FreeCCtx {
    void operator()(ZSTD_CCtx_s* c) const;
  };
  struct BlockEntry {
    uint64_t offset, raw_size;
    uint32_t first_doc;
  };
  void flush_block();

  Sink& out_;
  uint64_t written_ = 0;  // compressed block bytes so far
  uint32_t doc_count_ = 0;
  uint32_t block_docs_ = 0;
  bool finished_ = false;
  std::string raw_, compressed_;
  std::vector<BlockEntry> blocks_;
  std::unique_ptr<ZSTD_CCtx_s, FreeCCtx> cctx_;
};

class DocStoreReader {
 public:
  DocStoreReader() = default;
  DocStoreReader(std::span<const uint8_t> payload, std::string path_for_errors);  // throws IndexError
  uint32_t size() const { return count_; }
  // Thread-safe. Throws IndexError on damage, std::out_of_range for a bad id.
  StoredDoc get(DocId doc) const;
  uint64_t block_count() const { return n_blocks_; }
  // Block i < block_count(), its frame checked against the table's size
  // (IndexError when they differ); the frame's content is not read.
  StoredBlock block(uint64_t i) const;
  // Verifies the whole block table (fts-index check); get() and block()
  // check the entries they read.
  void check() const;

 private:
  uint64_t block_of(DocId doc) const;
  void check_block(uint64_t block) const;  // IndexError unless its entries rise and stay in bounds
  uint64_t entry_offset(uint64_t block) const;
  uint64_t entry_raw_size(uint64_t block) const;
  uint32_t entry_first_doc(uint64_t block) const;

  std::span<const uint8_t> payload_;
  std::string path_;
  uint32_t count_ = 0;
  uint64_t n_blocks_ = 0;
  const uint8_t* table_ = nullptr;  // (n_blocks_ + 1) entries, unaligned
  uint64_t table_offset_ = 0;       // where the blocks end
  uint64_t id_ = 0;  // tells this reader's blocks apart in the per-thread cache
};

}  // namespace fts
