// Gives a commit's new segments their near-duplicate cluster ids (NAME.dup):
// their docs are clustered together, as one segment of them all would be,
// and looked up in every segment that has cluster ids
// (index/writer/near_dupes.h), rather than each new segment looked up in
// the new ones before it (a build of many segments paid that per pair). The
// tables of a segment's fingerprints are built in memory the first time a
// lookup needs them and kept while the segment lives, so a writer that
// commits often (a server) sorts each old segment's fingerprints once.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "index/reader/index_reader.h"
#include "index/writer/near_dupes.h"

namespace fts {

class ClusterAssigner {
 public:
  // segments: the commit's, in id order. Those with fingerprints and no
  // cluster ids get them (written to DIR/NAME.dup, the segment's reader
  // reopened with them), at the distance of the segments that have them,
  // else at distance. Throws IoError or IndexError.
  void assign(const std::string& dir, std::vector<IndexReader::Segment*>& segments, unsigned distance);

 private:
  const BandedTable& table_of(const IndexReader::Segment& segment, unsigned distance);

  struct Cached {
    std::shared_ptr<const SegmentReader> reader;  // owns the fingerprints the table views
    std::unique_ptr<BandedTable> table;
  };
  std::unordered_map<std::string, Cached> tables_;  // by segment name
};

}  // namespace fts
