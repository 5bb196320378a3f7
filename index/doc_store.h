// Stored fields (title, url, abstract) for display and snippets, compressed
// with zstd in blocks of documents, with an offset table for random access.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "index/document.h"
#include "index/file_format.h"

namespace fts {

struct StoredDoc {
  std::string title, url, abstract;
};

class DocStoreWriter {
 public:
  explicit DocStoreWriter(Sink& out);
  void add(const std::string& title, const std::string& url, const std::string& abstract);
  void finish();  // last block and the offset table
};

class DocStoreReader {
 public:
  DocStoreReader() = default;
  DocStoreReader(std::span<const uint8_t> payload, std::string path_for_errors);  // throws IndexError
  uint32_t size() const;
  // Thread-safe. Throws IndexError on damage, std::out_of_range for a bad id.
  StoredDoc get(DocId doc) const;
};

}  // namespace fts
