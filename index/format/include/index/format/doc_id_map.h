// The global doc ids of a segment whose ids are not consecutive (a merge
// purged deleted docs between them): NAME.ids, u32 per local doc, strictly
// ascending, framed like every index file and read through its memory map.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index/format/fields.h"
#include "index/format/file_format.h"

namespace fts {

class DocIdMap {
 public:
  // Maps and validates DIR/NAME.ids (count, order); throws IndexError.
  DocIdMap(const std::string& path, uint32_t doc_count);
  static void write(const std::string& path, const std::vector<DocId>& ids);  // throws IndexError

  DocId global(DocId local) const { return ids_[local]; }
  // The local id of a global one, if the segment holds it.
  std::optional<DocId> local(DocId global) const;
  DocId first() const { return ids_.front(); }
  DocId last() const { return ids_.back(); }
  void verify_checksum() const { file_.verify_checksum(); }

 private:
  MappedFile file_;
  std::span<const DocId> ids_;
};

}  // namespace fts
