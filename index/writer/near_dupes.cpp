#include "index/writer/near_dupes.h"

#include <algorithm>
#include <numeric>

namespace fts {

namespace {

// Union-find over indexes whose root is always the smallest index of its set.
class SmallestRoot {
 public:
  explicit SmallestRoot(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
  uint32_t find(uint32_t x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];  // path halving
      x = parent_[x];
    }
    return x;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a < b) parent_[b] = a;
    if (b < a) parent_[a] = b;
  }

 private:
  std::vector<uint32_t> parent_;
};

}  // namespace

BandedTable::BandedTable(std::span<const uint64_t> fingerprints, unsigned distance)
    : fps_(fingerprints), distance_(distance) {
  const unsigned blocks = distance + 1;
  std::vector<uint32_t> present;
  for (uint32_t i = 0; i < fps_.size(); ++i) {
    if (fps_[i] != kNoFingerprint) present.push_back(i);
  }
  for (unsigned b = 0; b < blocks; ++b) {
    const unsigned lo = b * 64 / blocks, hi = (b + 1) * 64 / blocks;
    shift_.push_back(lo);
    mask_.push_back(hi - lo == 64 ? ~0ull : (1ull << (hi - lo)) - 1);
  }
  tables_.resize(blocks);
  for (unsigned b = 0; b < blocks; ++b) {
    tables_[b] = present;
    std::sort(tables_[b].begin(), tables_[b].end(), [&](uint32_t x, uint32_t y) {
      const uint64_t bx = block(fps_[x], b), by = block(fps_[y], b);
      if (bx != by) return bx < by;
      if (fps_[x] != fps_[y]) return fps_[x] < fps_[y];
      return x < y;
    });
  }
}

std::pair<const uint32_t*, const uint32_t*> BandedTable::run(unsigned b, uint64_t value) const {
  const std::vector<uint32_t>& t = tables_[b];
  auto first = std::partition_point(t.begin(), t.end(), [&](uint32_t i) { return block(fps_[i], b) < value; });
  auto last = std::partition_point(first, t.end(), [&](uint32_t i) { return block(fps_[i], b) == value; });
  return {t.data() + (first - t.begin()), t.data() + (last - t.begin())};
}

std::vector<uint32_t> cluster_fingerprints(std::span<const uint64_t> fingerprints, unsigned distance) {
  SmallestRoot sets(fingerprints.size());
  BandedTable(fingerprints, distance).for_each_linking_pair([&](uint32_t a, uint32_t b) { sets.join(a, b); });
  std::vector<uint32_t> root(fingerprints.size());
  for (uint32_t i = 0; i < root.size(); ++i) root[i] = sets.find(i);
  return root;
}

std::vector<std::vector<DocId>> cluster_ids_of(std::span<const IndexReader::Segment* const> fresh,
                                               std::span<const ClusteredSegment> others, unsigned distance) {
  // The new docs in id order, deleted ones without a fingerprint.
  std::vector<uint64_t> live;
  std::vector<DocId> id;  // per doc: its global id, then its cluster's
  for (const IndexReader::Segment* segment : fresh) {
    const Fingerprints& fps = segment->reader->fingerprints();
    for (DocId d = 0; d < segment->reader->doc_count(); ++d) {
      live.push_back(segment->is_live(d) ? fps[d] : kNoFingerprint);
      id.push_back(segment->global(d));
    }
  }
  const std::vector<uint32_t> root = cluster_fingerprints(live, distance);
  // A component's id: the smallest of its docs' global ids and of the ids of
  // the older clusters any of them is near.
  for (size_t i = 0; i < live.size(); ++i) {
    if (live[i] == kNoFingerprint) continue;
    for (const ClusteredSegment& other : others) {
      other.table->for_each_near(live[i], [&](uint32_t c) {
        if (other.segment->is_live(c)) id[root[i]] = std::min(id[root[i]], other.segment->cluster(c));
      });
    }
  }
  for (size_t i = 0; i < id.size(); ++i) id[i] = id[root[i]];  // root[i] <= i: its id is final
  std::vector<std::vector<DocId>> out;
  size_t next = 0;
  for (const IndexReader::Segment* segment : fresh) {
    const size_t n = segment->reader->doc_count();
    out.emplace_back(id.begin() + static_cast<std::ptrdiff_t>(next), id.begin() + static_cast<std::ptrdiff_t>(next + n));
    next += n;
  }
  return out;
}

std::vector<ClusteredDoc> clustered_docs(const IndexReader& index, bool recluster, unsigned distance) {
  std::vector<ClusteredDoc> docs;
  for (const IndexReader::Segment& s : index.segments()) {
    const Fingerprints& fps = s.reader->fingerprints();
    if (fps.empty()) continue;
    for (DocId d = 0; d < s.reader->doc_count(); ++d) {
      if (s.is_live(d)) docs.push_back({s.global(d), s.cluster(d), fps[d]});
    }
  }
  if (recluster) {
    std::vector<uint64_t> fps(docs.size());
    for (size_t i = 0; i < docs.size(); ++i) fps[i] = docs[i].fingerprint;
    const std::vector<uint32_t> root = cluster_fingerprints(fps, distance);
    for (size_t i = 0; i < docs.size(); ++i) docs[i].cluster = docs[root[i]].doc;
  }
  return docs;
}

}  // namespace fts
