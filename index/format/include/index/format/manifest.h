// The manifest names the live segments of an index and the analyzer's
// stopwords. Replacing it (write MANIFEST.tmp, fsync, rename) is the one
// atomic step of a commit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/stopwords.h"

namespace fts {

inline constexpr const char* kManifestName = "MANIFEST";

struct SegmentInfo {
  std::string name;
  uint32_t doc_count = 0;
};

struct Manifest {
  uint64_t generation = 0;
  std::vector<std::string> stopwords;
  std::vector<SegmentInfo> segments;
};

std::string manifest_path(const std::string& dir);
// Throws IndexError; a missing manifest says the directory holds no index.
Manifest read_manifest(const std::string& dir);
bool manifest_exists(const std::string& dir);
void write_manifest(const std::string& dir, const Manifest& manifest);

}  // namespace fts
