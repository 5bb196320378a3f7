#include "index/format/fingerprints.h"

#include "index/format/file_format.h"
#include "util/bytes.h"

namespace fts {

namespace {

void write_table(const std::string& path, FileKind kind, uint32_t count, uint32_t second, const void* values,
                 size_t bytes) {
  std::string header;
  put_u32(header, count);
  put_u32(header, second);
  FileWriter out(path, kind);
  out.write(header.data(), header.size());
  out.write(values, bytes);  // little-endian host, as the format assumes
  out.finish();
}

// The payload's values after its 8-byte header, checked to be docs of width bytes.
const uint8_t* table_of(std::span<const uint8_t> payload, uint32_t doc_count, size_t width, const std::string& path,
                        const char* what) {
  if (payload.size() < 8) throw_corrupt(path, 0, std::string(what) + " header truncated");
  const uint32_t count = load_u32(payload.data());
  if (count != doc_count || payload.size() != 8 + uint64_t(count) * width) {
    throw_corrupt(path, 0, std::string(what) + " of " + std::to_string(count) + " docs in " +
                               std::to_string(payload.size()) + " bytes for a segment of " +
                               std::to_string(doc_count) + " docs");
  }
  return payload.data() + 8;  // the payload starts 16-byte aligned, so 8-byte aligned here
}

}  // namespace

void write_fingerprints(const std::string& path, std::span<const uint64_t> fingerprints) {
  write_table(path, FileKind::kFingerprints, static_cast<uint32_t>(fingerprints.size()), 0, fingerprints.data(),
              fingerprints.size_bytes());
}

void write_cluster_ids(const std::string& path, std::span<const DocId> cluster_ids, unsigned distance) {
  write_table(path, FileKind::kClusterIds, static_cast<uint32_t>(cluster_ids.size()), distance, cluster_ids.data(),
              cluster_ids.size_bytes());
}

Fingerprints::Fingerprints(std::span<const uint8_t> payload, uint32_t doc_count, const std::string& path) {
  values_ = {reinterpret_cast<const uint64_t*>(table_of(payload, doc_count, 8, path, "fingerprint table")), doc_count};
}

ClusterIds::ClusterIds(std::span<const uint8_t> payload, uint32_t doc_count, const std::string& path) {
  ids_ = {reinterpret_cast<const DocId*>(table_of(payload, doc_count, 4, path, "cluster table")), doc_count};
  distance_ = load_u32(payload.data() + 4);
  if (distance_ > kMaxDupeDistance) {
    throw_corrupt(path, 4, "near-duplicate distance " + std::to_string(distance_) + " above " +
                               std::to_string(kMaxDupeDistance));
  }
}

}  // namespace fts
