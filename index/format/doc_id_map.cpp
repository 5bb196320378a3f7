#include "index/format/doc_id_map.h"

#include <algorithm>

namespace fts {

DocIdMap::DocIdMap(const std::string& path, uint32_t doc_count) : file_(path, FileKind::kDocIds) {
  auto payload = file_.payload();
  if (payload.size() != uint64_t(doc_count) * 4 || doc_count == 0) {
    throw_corrupt(path, 0, "doc ids hold " + std::to_string(payload.size()) + " bytes for " +
                               std::to_string(doc_count) + " docs");
  }
  // The payload starts 16-byte aligned in the mapping (kFileHeaderSize).
  ids_ = std::span<const DocId>(reinterpret_cast<const DocId*>(payload.data()), doc_count);
  for (size_t i = 1; i < ids_.size(); ++i) {
    if (ids_[i] <= ids_[i - 1]) throw_corrupt(path, i * 4, "doc ids not ascending");
  }
}

void DocIdMap::write(const std::string& path, const std::vector<DocId>& ids) {
  FileWriter out(path, FileKind::kDocIds);
  out.write(ids.data(), ids.size() * sizeof(DocId));  // little-endian host, as the format assumes
  out.finish();
}

std::optional<DocId> DocIdMap::local(DocId global) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), global);
  if (it == ids_.end() || *it != global) return std::nullopt;
  return static_cast<DocId>(it - ids_.begin());
}

}  // namespace fts
