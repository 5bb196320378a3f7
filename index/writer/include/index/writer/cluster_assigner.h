// Gives a commit's new segments their near-duplicate cluster ids (NAME.dup):
// their docs are clustered together, as one segment of them all would be,
// and looked up in every segment that has cluster ids
// (index/writer/near_dupes.h), rather than each new segment looked up in
// the new ones before it (a build of many segments paid that per pair).
#pragma once

#include <string>
#include <vector>

#include "index/reader/index_reader.h"

namespace fts {

// segments: the commit's, in id order. Those with fingerprints and no
// cluster ids get them (written to DIR/NAME.dup, the segment's reader
// reopened with them), at the distance of the segments that have them,
// else at distance, on up to `threads` threads, as many as keep the tables
// in flight (about 24 bytes a new doc each) within memory_bytes. Throws
// IoError or IndexError.
void assign_cluster_ids(const std::string& dir, std::vector<IndexReader::Segment*>& segments, unsigned distance,
                        unsigned threads, size_t memory_bytes);

}  // namespace fts
