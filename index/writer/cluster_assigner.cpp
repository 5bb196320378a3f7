#include "index/writer/cluster_assigner.h"

#include <unordered_set>

#include "index/format/fingerprints.h"
#include "index/format/segment_files.h"

namespace fts {

const BandedTable& ClusterAssigner::table_of(const IndexReader::Segment& segment, unsigned distance) {
  Cached& cached = tables_[segment.reader->name()];
  if (!cached.table || cached.table->distance() != distance) {  // a name is one segment's, immutable
    cached.reader = segment.reader;
    cached.table = std::make_unique<BandedTable>(segment.reader->fingerprints().values(), distance);
  }
  return *cached.table;
}

void ClusterAssigner::assign(const std::string& dir, std::vector<IndexReader::Segment*>& segments,
                             unsigned distance) {
  for (const IndexReader::Segment* s : segments) {
    if (!s->reader->cluster_ids().empty()) {
      distance = s->reader->cluster_ids().distance();  // one distance for the index
      break;
    }
  }
  std::unordered_set<std::string> live_names;
  std::vector<IndexReader::Segment*> fresh;
  std::vector<ClusteredSegment> others;
  for (IndexReader::Segment* s : segments) {
    live_names.insert(s->reader->name());
    if (!s->reader->cluster_ids().empty()) {
      others.push_back({s, &table_of(*s, distance)});
    } else if (!s->reader->fingerprints().empty()) {
      fresh.push_back(s);
    }
  }
  const std::vector<std::vector<DocId>> ids = cluster_ids_of(fresh, others, distance);
  for (size_t i = 0; i < fresh.size(); ++i) {
    IndexReader::Segment* s = fresh[i];
    // The reader's name is DIR/NAME (for messages); its files are DIR/NAME.*.
    const std::string& path = s->reader->name();
    const std::string name = path.substr(path.rfind('/') + 1);
    write_cluster_ids(segment_file(dir, name, kClusterIdsExtension), ids[i], distance);
    s->reader = SegmentReader::open(dir, name, !s->reader->bloom().empty(), s->reader->has_url_table(),
                                    NearDupeFiles::kClusters);
  }
  std::erase_if(tables_, [&](const auto& entry) { return !live_names.contains(entry.first); });
}

}  // namespace fts
