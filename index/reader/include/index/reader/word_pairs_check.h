// fts-index check of a segment's word pairs (index/format/word_pairs.h)
// against its positions: a pair list that disagrees would change phrase
// answers under valid checksums.
#pragma once

#include "index/format/word_pairs.h"
#include "index/reader/segment_reader.h"

namespace fts {

// Throws IndexError unless every pair key names two of words and holds
// exactly the docs where they are adjacent in a field, with freq their
// occurrences in title plus abstract, and no adjacent pair of words lacks
// its list.
void check_word_pairs(const SegmentReader& segment, const PairWords& words);

}  // namespace fts
