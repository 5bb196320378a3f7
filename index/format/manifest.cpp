#include "index/format/manifest.h"

#include <sys/stat.h>

#include "util/bytes.h"
#include "index/format/file_format.h"

namespace fts {

std::string manifest_path(const std::string& dir) { return dir + "/" + kManifestName; }

bool manifest_exists(const std::string& dir) {
  struct stat st;
  return ::stat(manifest_path(dir).c_str(), &st) == 0;
}

Manifest read_manifest(const std::string& dir) {
  std::string path = manifest_path(dir);
  if (!manifest_exists(dir)) {
    struct stat st;
    if (::stat(dir.c_str(), &st) != 0) throw IndexError(dir, "no such index directory");
    throw IndexError(dir, std::string("not an fts index (no ") + kManifestName + ")");
  }
  MappedFile file(path, FileKind::kManifest);
  file.verify_checksum();
  auto payload = file.payload();
  ByteReader r(payload.data(), payload.data() + payload.size());
  Manifest m;
  uint64_t count = 0;
  auto fail = [&](const char* what) { throw_corrupt(path, r.pos() - payload.data(), what); };
  if (!r.get_u64(m.generation) || !r.get_varint(count)) fail("manifest header truncated");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t len = 0;
    std::string_view word;
    if (!r.get_varint(len) || !r.get_bytes(len, word)) fail("stopword truncated");
    m.stopwords.emplace_back(word);
  }
  if (!r.get_varint(count)) fail("segment count truncated");
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t len = 0;
    std::string_view name;
    SegmentInfo seg;
    if (!r.get_varint(len) || !r.get_bytes(len, name) || !r.get_u32(seg.doc_count)) fail("segment entry truncated");
    if (name.empty() || name.find('/') != std::string_view::npos) fail("bad segment name");
    seg.name = name;
    m.segments.push_back(std::move(seg));
  }
  if (r.remaining() != 0) fail("trailing bytes after the segment list");
  return m;
}

void write_manifest(const std::string& dir, const Manifest& m) {
  std::string buf;
  put_u64(buf, m.generation);
  put_varint(buf, m.stopwords.size());
  for (const auto& w : m.stopwords) {
    put_varint(buf, w.size());
    buf += w;
  }
  put_varint(buf, m.segments.size());
  for (const auto& s : m.segments) {
    put_varint(buf, s.name.size());
    buf += s.name;
    put_u32(buf, s.doc_count);
  }
  FileWriter out(manifest_path(dir), FileKind::kManifest);
  out.write(buf.data(), buf.size());
  out.finish();  // fsync + atomic rename + directory fsync: the commit point
}

}  // namespace fts
