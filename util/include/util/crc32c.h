// Checksums of index files.
#pragma once

#include <cstddef>
#include <cstdint>

namespace fts {

// CRC-32C (Castagnoli), chainable: crc32c(crc32c(0, a), b) == crc32c(0, ab).
// Uses SSE4.2 when the CPU has it, a table otherwise.
uint32_t crc32c(uint32_t crc, const void* data, size_t size);
namespace detail {
uint32_t crc32c_portable(uint32_t crc, const void* data, size_t size);
bool crc32c_hardware_available();
uint32_t crc32c_hardware(uint32_t crc, const void* data, size_t size);  // only when available
}  // namespace detail

}  // namespace fts
