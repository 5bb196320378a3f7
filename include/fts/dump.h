// Dumps in the enwiki abstract format (<feed><doc><title/><url/><abstract/>
// <links/></doc>...), plain or gzip: what fts-index build reads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "fts/errors.h"
#include "fts/export.h"

namespace fts {

class IndexWriter;

struct DumpOptions {
  bool strict = false;  // a malformed <doc> is a DumpError instead of skipped
  // Called with a one-line warning for each skipped <doc>.
  std::function<void(const std::string&)> warn = {};
  // A <doc> larger than this is skipped as malformed (fatal under strict)
  // instead of being buffered whole: memory stays bounded on any input.
  uint64_t max_doc_bytes = uint64_t{256} << 20;
  // A slice of the dump: only the docs whose "<doc" starts at an
  // uncompressed byte offset in [slice_begin, slice_end), as the ranks of a
  // distributed build read theirs. Slices that meet give every doc exactly
  // once. Docs before the slice are scanned past, not parsed; reading stops
  // at the first doc past it.
  uint64_t slice_begin = 0, slice_end = UINT64_MAX;
};

// Adds every document of the dump at path ("-": stdin) to writer, in
// constant memory; returns the number of malformed docs skipped. Throws
// DumpError (unreadable dump) and what IndexWriter::add throws.
FTS_API uint64_t add_dump(IndexWriter& writer, const std::string& path, const DumpOptions& options = {});

}  // namespace fts
