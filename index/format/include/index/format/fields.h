// The indexed fields and the doc id, shared by every index file.
#pragma once

#include <cstdint>

namespace fts {

// Indexed fields. kAny is the union of title and abstract (unqualified terms).
enum class Field : uint8_t { kAny = 0, kTitle = 1, kAbstract = 2 };

using DocId = uint32_t;

}  // namespace fts
