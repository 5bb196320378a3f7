// Names of a segment's files.
#pragma once

#include <string>

namespace fts {

inline std::string segment_file(const std::string& dir, const std::string& name, const char* ext) {
  return dir + "/" + name + "." + ext;
}
inline constexpr const char* kSegmentExtensions[] = {"post", "pos", "dict", "docs", "norms"};
// Optional: segments written before Bloom filters have none.
inline constexpr const char* kBloomExtension = "bloom";
// Optional: segments written before url tables have none.
inline constexpr const char* kUrlsExtension = "urls";
// Optional: near-duplicate fingerprints and cluster ids (index/format/fingerprints.h).
inline constexpr const char* kFingerprintsExtension = "sim";
inline constexpr const char* kClusterIdsExtension = "dup";

}  // namespace fts
