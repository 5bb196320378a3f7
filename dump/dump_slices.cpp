#include "dump/dump_slices.h"

#include <algorithm>

namespace fts {

namespace {

// total * part / parts without overflow.
uint64_t share(uint64_t total, unsigned part, unsigned parts) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(total) * part / parts);
}

}  // namespace

std::vector<DumpSlice> dump_slices(const std::vector<uint64_t>& sizes, unsigned rank, unsigned ranks) {
  uint64_t total = 0;
  for (uint64_t s : sizes) total += s;
  const uint64_t from = share(total, rank, ranks), to = share(total, rank + 1, ranks);
  std::vector<DumpSlice> out;
  uint64_t start = 0;  // of file i in the concatenation
  for (size_t i = 0; i < sizes.size(); start += sizes[i], ++i) {
    const uint64_t file_end = start + sizes[i];
    if (from >= file_end || to <= start || from == to) continue;
    DumpSlice slice;
    slice.file = i;
    slice.begin = std::max(from, start) - start;
    // To the end of the file whenever the range reaches it, so a doc is
    // never lost to a size measured short.
    slice.end = to >= file_end ? UINT64_MAX : to - start;
    out.push_back(slice);
  }
  return out;
}

}  // namespace fts
