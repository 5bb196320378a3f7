// Streams documents out of a dump in the enwiki abstract format
// (<feed><doc><title/><url/><abstract/><links/></doc>...), plain or gzip,
// from a file or stdin, in constant memory whatever the dump's size.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "dump/document.h"
#include "fts/dump.h"

namespace fts {

class DumpReader {
 public:
  using Options = DumpOptions;  // strict, warn, max_doc_bytes

  // path "-" reads stdin. gzip is detected from the content, not the name.
  // Throws DumpError when the file cannot be opened.
  DumpReader(const std::string& path, Options options);
  ~DumpReader();

  // Fills doc with the next well-formed <doc>; false at the end of the dump.
  // Throws DumpError on fatal damage.
  bool next(Document& doc);

  uint64_t docs_skipped() const;
  // Bytes consumed from the file (compressed bytes for gzip), for progress.
  uint64_t input_bytes_read() const;
  // Size of the file, 0 when unknown (stdin, pipes).
  uint64_t input_size() const;
  // Uncompressed bytes consumed.
  uint64_t xml_bytes_read() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Bytes of the dump's uncompressed stream, the offsets DumpOptions' slices
// are in: the file's size, or (gzip) a pass of decompression. Throws
// DumpError.
uint64_t dump_xml_size(const std::string& path);

}  // namespace fts
