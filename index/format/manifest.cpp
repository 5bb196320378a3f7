#include "index/format/manifest.h"

#include <sys/stat.h>

#include "util/bytes.h"
#include "index/format/file_format.h"
#include "index/format/word_pairs.h"

namespace fts {

namespace {
// Marks the doc-id section after the segment list ("IDS1").
constexpr uint32_t kManifestIdsTag = 0x31534449;
// Marks the pair words after the doc-id section ("PRS1").
constexpr uint32_t kManifestPairsTag = 0x31535250;
}  // namespace

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
    seg.has_bloom = false;  // unless the doc-id section says so
    seg.has_urls = false;
    seg.has_dupes = false;
    m.segments.push_back(std::move(seg));
  }
  // Without the extension (an index of before deletes): every doc live, ids
  // consecutive from 0 in segment order.
  uint64_t next = 0;
  for (auto& seg : m.segments) {
    seg.base = static_cast<DocId>(next);
    next += seg.doc_count;
  }
  m.next_doc_id = static_cast<DocId>(next);
  if (r.remaining() != 0) {
    uint32_t tag = 0;
    if (!r.get_u32(tag) || tag != kManifestIdsTag) fail("unknown data after the segment list");
    if (!r.get_u32(m.next_doc_id)) fail("next doc id truncated");
    uint64_t end = 0;
    for (auto& seg : m.segments) {
      uint8_t flags = 0;
      std::string_view flag_byte;
      if (!r.get_u32(seg.base) || !r.get_bytes(1, flag_byte) || !r.get_varint(seg.live_generation) ||
          !r.get_u32(seg.deleted)) {
        fail("segment ids entry truncated");
      }
      flags = static_cast<uint8_t>(flag_byte[0]);
      if (flags > 15) fail("unknown segment flags");
      seg.has_id_map = flags & 1;
      seg.has_bloom = flags & 2;
      seg.has_urls = flags & 4;
      seg.has_dupes = flags & 8;
      if (seg.base < end) fail("segments overlap or are out of id order");
      if (seg.deleted > seg.doc_count) fail("more deleted docs than docs in a segment");
      if ((seg.live_generation == 0) != (seg.deleted == 0)) fail("deleted docs without a live-docs file");
      end = uint64_t(seg.base) + seg.doc_count;
      if (!seg.has_id_map && end > m.next_doc_id) fail("segment ids beyond the next doc id");
    }
    if (r.remaining() != 0) {
      if (!r.get_u32(tag) || tag != kManifestPairsTag || !r.get_varint(count)) fail("unknown data after the segment ids");
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t len = 0;
        std::string_view word;
        if (!r.get_varint(len) || !r.get_bytes(len, word)) fail("pair word truncated");
        if (word.empty() || is_pair_term(word)) fail("bad pair word");
        m.pair_words.emplace_back(word);
      }
      if (r.remaining() != 0) fail("trailing bytes after the pair words");
    }
  }
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
  put_u32(buf, kManifestIdsTag);
  put_u32(buf, m.next_doc_id);
  for (const auto& s : m.segments) {
    put_u32(buf, s.base);
    buf.push_back(static_cast<char>((s.has_id_map ? 1 : 0) | (s.has_bloom ? 2 : 0) | (s.has_urls ? 4 : 0) |
                                       (s.has_dupes ? 8 : 0)));
    put_varint(buf, s.live_generation);
    put_u32(buf, s.deleted);
  }
  if (!m.pair_words.empty()) {
    put_u32(buf, kManifestPairsTag);
    put_varint(buf, m.pair_words.size());
    for (const auto& w : m.pair_words) {
      put_varint(buf, w.size());
      buf += w;
    }
  }
  FileWriter out(manifest_path(dir), FileKind::kManifest);
  out.write(buf.data(), buf.size());
  out.finish();  // fsync + atomic rename + directory fsync: the commit point
}

}  // namespace fts
