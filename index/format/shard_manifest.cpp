#include "index/format/shard_manifest.h"

#include <sys/stat.h>

#include "index/format/file_format.h"
#include "index/format/postings.h"
#include "util/bytes.h"

namespace fts {

std::string shard_manifest_path(const std::string& dir) { return dir + "/" + kShardsName; }

bool shard_manifest_exists(const std::string& dir) {
  struct stat st;
  return ::stat(shard_manifest_path(dir).c_str(), &st) == 0;
}

std::string shard_name(unsigned rank) { return "shard-" + std::to_string(rank); }

ShardManifest read_shard_manifest(const std::string& dir) {
  const std::string path = shard_manifest_path(dir);
  MappedFile file(path, FileKind::kShards);
  file.verify_checksum();
  auto payload = file.payload();
  ByteReader r(payload.data(), payload.data() + payload.size());
  auto fail = [&](const std::string& what) { throw_corrupt(path, r.pos() - payload.data(), what); };
  ShardManifest m;
  uint64_t count = 0;
  if (!r.get_u64(m.doc_count)) fail("doc count truncated");
  for (auto& length : m.total_length) {
    if (!r.get_u64(length)) fail("field lengths truncated");
  }
  if (!r.get_varint(count) || count == 0 || count > 1u << 20) fail("bad shard count");
  uint64_t next = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t len = 0;
    std::string_view name;
    ShardInfo shard;
    if (!r.get_varint(len) || !r.get_bytes(len, name) || !r.get_u32(shard.base) || !r.get_u32(shard.doc_count)) {
      fail("shard entry truncated");
    }
    if (name.empty() || name.find('/') != std::string_view::npos || name == "." || name == "..") {
      fail("bad shard name");
    }
    if (shard.base < next) fail("shards overlap or are out of id order");
    next = uint64_t(shard.base) + shard.doc_count;
    if (next > kNoMoreDocs) fail("shard ids beyond the id space");
    shard.name = name;
    m.shards.push_back(std::move(shard));
  }
  if (r.remaining() != 0) fail("trailing bytes after the shards");
  uint64_t docs = 0;
  for (const auto& s : m.shards) docs += s.doc_count;
  if (docs != m.doc_count) {
    fail("the shards hold " + std::to_string(docs) + " docs, the total says " + std::to_string(m.doc_count));
  }
  return m;
}

void write_shard_manifest(const std::string& dir, const ShardManifest& m) {
  std::string buf;
  put_u64(buf, m.doc_count);
  for (uint64_t length : m.total_length) put_u64(buf, length);
  put_varint(buf, m.shards.size());
  for (const auto& s : m.shards) {
    put_varint(buf, s.name.size());
    buf += s.name;
    put_u32(buf, s.base);
    put_u32(buf, s.doc_count);
  }
  FileWriter out(shard_manifest_path(dir), FileKind::kShards);
  out.write(buf.data(), buf.size());
  out.finish();
}

}  // namespace fts
