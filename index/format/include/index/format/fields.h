// The indexed fields and the doc id, shared by every index file.
#pragma once

#include <cstdint>

#include "fts/document.h"  // DocId

namespace fts {

// Indexed fields. kAny is the union of title and abstract (unqualified terms).
enum class Field : uint8_t { kAny = 0, kTitle = 1, kAbstract = 2 };
inline constexpr int kFieldCount = 3;

}  // namespace fts
