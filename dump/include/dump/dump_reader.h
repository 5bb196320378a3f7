// Streams documents out of a dump in the enwiki abstract format
// (<feed><doc><title/><url/><abstract/><links/></doc>...), plain or gzip,
// from a file or stdin, in constant memory whatever the dump's size.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "dump/document.h"

namespace fts {

// A dump that cannot be read at all (missing file, corrupt or truncated gzip,
// not a dump, a malformed <doc> under strict): what and where, one line.
class DumpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class DumpReader {
 public:
  struct Options {
    bool strict = false;  // a malformed <doc> is fatal instead of skipped
    // Called with a one-line warning for each skipped <doc>.
    std::function<void(const std::string&)> warn;
    // A <doc> larger than this is skipped as malformed (fatal under strict)
    // instead of being buffered whole: memory stays bounded on any input.
    uint64_t max_doc_bytes = uint64_t{256} << 20;
  };

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

}  // namespace fts
