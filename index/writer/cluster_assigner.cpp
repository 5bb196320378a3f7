#include "index/writer/cluster_assigner.h"

#include <algorithm>

#include "index/format/fingerprints.h"
#include "index/format/segment_files.h"
#include "index/writer/near_dupes.h"

namespace fts {

void assign_cluster_ids(const std::string& dir, std::vector<IndexReader::Segment*>& segments, unsigned distance,
                        unsigned threads, size_t memory_bytes) {
  for (const IndexReader::Segment* s : segments) {
    if (!s->reader->cluster_ids().empty()) {
      distance = s->reader->cluster_ids().distance();  // one distance for the index
      break;
    }
  }
  std::vector<const IndexReader::Segment*> fresh, known;
  for (IndexReader::Segment* s : segments) {
    if (!s->reader->cluster_ids().empty()) {
      known.push_back(s);
    } else if (!s->reader->fingerprints().empty()) {
      fresh.push_back(s);
    }
  }
  if (fresh.empty()) return;
  size_t docs = 0;
  for (const IndexReader::Segment* s : fresh) docs += s->reader->doc_count();
  const size_t table_bytes = 24 * std::max<size_t>(docs, 1);  // sorted entries and their key index
  threads = static_cast<unsigned>(std::clamp<size_t>(memory_bytes / table_bytes, 1, std::max(threads, 1u)));
  const std::vector<std::vector<DocId>> ids = cluster_ids_of(fresh, known, distance, 0, threads);
  size_t next = 0;
  for (IndexReader::Segment* s : segments) {
    if (next == fresh.size() || s != fresh[next]) continue;
    // The reader's name is DIR/NAME (for messages); its files are DIR/NAME.*.
    const std::string& path = s->reader->name();
    const std::string name = path.substr(path.rfind('/') + 1);
    write_cluster_ids(segment_file(dir, name, kClusterIdsExtension), ids[next++], distance);
    s->reader = SegmentReader::open(dir, name, !s->reader->bloom().empty(), s->reader->has_url_table(),
                                    NearDupeFiles::kClusters);
  }
}

}  // namespace fts
