// A document of the dump, as the reader yields it and the index stores it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fts {

struct Document {
  std::string title;     // without the leading "Wikipedia: "
  std::string url;
  std::string abstract;  // empty for <abstract />
  std::vector<std::string> links;  // sublink anchors
  uint64_t byte_offset = 0;        // of its <doc> in the uncompressed stream
};

// Indexed fields. kAny is the union of title and abstract (unqualified terms).
enum class Field : uint8_t { kAny = 0, kTitle = 1, kAbstract = 2 };

using DocId = uint32_t;

}  // namespace fts
