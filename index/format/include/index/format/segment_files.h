// Names of a segment's files and the layout of its small norms file.
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

// Norms payload: u32 doc count, u64 total length of kAny, kTitle and
// kAbstract, (format 4 on) u32 shortest length of kAny, kTitle and
// kAbstract, then per doc u16 title length and u16 abstract length
// (saturated at 65535).
inline constexpr size_t kNormsHeaderBytes = 4 + 3 * 8 + 3 * 4;
inline constexpr size_t kNormsHeaderBytesBefore4 = 4 + 3 * 8;

}  // namespace fts
