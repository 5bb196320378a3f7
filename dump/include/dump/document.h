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

}  // namespace fts
