// Cutting dumps into contiguous slices, one per rank of a distributed
// build: the uncompressed bytes of all the files, in order, are split into
// ranks equal ranges, and a doc belongs to the range where its "<doc"
// starts. Rank r's docs are then those after rank r-1's and before rank
// r+1's: concatenated in rank order they are the docs of the whole input in
// order, as one build would number them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fts {

struct DumpSlice {
  size_t file = 0;  // index into the dumps
  // Uncompressed byte offsets in that file (DumpOptions::slice_begin/end);
  // end is UINT64_MAX when the slice runs to the file's end.
  uint64_t begin = 0, end = UINT64_MAX;
};

// sizes: each file's uncompressed size (dump_xml_size). The slices of rank
// (< ranks), in file order; none when its range is empty.
std::vector<DumpSlice> dump_slices(const std::vector<uint64_t>& sizes, unsigned rank, unsigned ranks);

}  // namespace fts
