// A document as fts indexes and stores it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fts {

// 0-based ordinal of a document in the order it was added.
using DocId = uint32_t;

// Every member has a default initializer, so designated initializers may
// name any subset ({.title = "Cat", .abstract = "..."}) without warnings.
struct Document {
  std::string title = {};     // without the leading "Wikipedia: "
  std::string url = {};
  std::string abstract = {};  // empty for <abstract />
  std::vector<std::string> links = {};  // sublink anchors (not indexed)
  uint64_t byte_offset = 0;        // of its <doc> in the uncompressed dump (0 when added from code)
};

}  // namespace fts
