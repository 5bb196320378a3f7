// A sharded index (fts-index build --distributed): DIR/shard-0 ...
// DIR/shard-{R-1}, each a normal index whose doc ids start at 0, and
// DIR/SHARDS naming them with the global id of each one's doc 0 and the
// statistics of all of them together. SHARDS is written last, atomically
// (FileWriter: .tmp, fsync, rename), once every shard committed: until then
// DIR holds no index, so a build that dies half-way leaves none visible.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "index/format/fields.h"

namespace fts {

inline constexpr const char* kShardsName = "SHARDS";

struct ShardInfo {
  std::string name;       // a directory under the index's: shard-0, shard-1...
  DocId base = 0;         // global id of the shard's doc 0
  uint32_t doc_count = 0; // docs the shard held when the build committed
};

struct ShardManifest {
  std::vector<ShardInfo> shards;  // in ascending, disjoint id ranges
  // BM25's collection statistics over every shard at build time: the doc
  // count is the sum of the shards', the field lengths are summed per field.
  uint64_t doc_count = 0;
  std::array<uint64_t, kFieldCount> total_length = {};
};

std::string shard_manifest_path(const std::string& dir);
bool shard_manifest_exists(const std::string& dir);
// Throws IndexError (damaged, ranges out of order, sums that disagree).
ShardManifest read_shard_manifest(const std::string& dir);
void write_shard_manifest(const std::string& dir, const ShardManifest& manifest);
// "shard-3": the directory of rank 3's shard.
std::string shard_name(unsigned rank);

}  // namespace fts
