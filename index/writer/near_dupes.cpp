#include "index/writer/near_dupes.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <numeric>

#include <string>

#include "fts/errors.h"
#include "util/parallel_for.h"

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

unsigned cluster_blocks(size_t n, unsigned k, size_t known) {
  // A fresh fingerprint's pass through a table (permute, sort, scan) costs
  // about as much as this many distances in a run (measured on the 1M-doc
  // dump: 45-50 ns against about 3 ns), a known one's (permute, look up)
  // about a quarter of it.
  constexpr double kPassCost = 16, kLookupCost = 4;
  const double fresh = static_cast<double>(n), old = static_cast<double>(known);
  unsigned best = k + 1;
  double best_cost = 0;
  for (unsigned m = k + 1; m <= 64; ++m) {
    const unsigned t = m - k;
    double tables = 1;  // C(m, t), exact in a double at these sizes
    for (unsigned i = 1; i <= t; ++i) tables = tables * (k + i) / i;
    if (tables > 256) break;  // C(m, m - k) only grows with m
    const double key_bits = std::floor(64.0 * t / m);
    const double compared = (fresh * fresh / 2 + fresh * old) / std::exp2(key_bits);
    const double cost = tables * (kPassCost * fresh + kLookupCost * old + compared);
    if (m == k + 1 || cost < best_cost) best = m, best_cost = cost;
  }
  return best;
}

namespace {

// One table of the clustering: the fingerprints with the bits of its key
// blocks moved to the top, the other blocks below in their order. Moving
// bits keeps every Hamming distance, so runs of equal keys are compared in
// this form, read in sequence rather than through indices.
class PermutedTable {
 public:
  struct Entry {
    uint64_t bits;   // the permuted fingerprint
    uint32_t index;  // into the fingerprints
  };

  // lo: the blocks' first bits and 64 at the end; key: which blocks, in order.
  PermutedTable(const std::vector<unsigned>& lo, const std::vector<char>& key) {
    unsigned to = 64;
    auto place = [&](unsigned b) {
      const unsigned width = lo[b + 1] - lo[b];
      to -= width;
      moves_.push_back({lo[b], to, width == 64 ? ~0ull : (1ull << width) - 1});
    };
    for (unsigned b = 0; b + 1 < lo.size(); ++b) {
      if (key[b]) place(b);
    }
    key_bits_ = 64 - to;
    for (unsigned b = 0; b + 1 < lo.size(); ++b) {
      if (!key[b]) place(b);
    }
  }

  unsigned key_bits() const { return key_bits_; }

  uint64_t permute(uint64_t fp) const {
    uint64_t out = 0;
    for (const Move& m : moves_) out |= ((fp >> m.from) & m.mask) << m.to;
    return out;
  }

  // Fills entries with the present fingerprints sorted by (bits, index):
  // by their top 8 bits, then each such bucket by the next bits through
  // scratch, then what is left of a sub-bucket by comparison. Every pass
  // writes to at most 4,096 places, which stay in cache: a counting sort on
  // a whole 21-bit key missed the cache at every entry and took most of the
  // clustering's time.
  void sort(std::span<const uint64_t> fps, size_t present, std::vector<Entry>& entries,
            std::vector<Entry>& scratch) const {
    std::vector<uint32_t> starts((size_t{1} << kMaxSubBits) + 1, 0);
    for (uint64_t fp : fps) {
      if (fp != kNoFingerprint) ++starts[(permute(fp) >> (64 - kTopBits)) + 1];
    }
    for (size_t b = 1; b <= kBuckets; ++b) starts[b] += starts[b - 1];
    const std::vector<uint32_t> bucket_start(starts.begin(), starts.begin() + kBuckets + 1);
    entries.resize(present);
    for (uint32_t i = 0; i < fps.size(); ++i) {
      if (fps[i] == kNoFingerprint) continue;
      const uint64_t bits = permute(fps[i]);
      entries[starts[bits >> (64 - kTopBits)]++] = {bits, i};
    }
    for (size_t b = 0; b < kBuckets; ++b) {
      sort_bucket(std::span(entries).subspan(bucket_start[b], bucket_start[b + 1] - bucket_start[b]), starts, scratch);
    }
  }

 private:
  static constexpr unsigned kTopBits = 8, kMaxSubBits = 12;
  static constexpr size_t kBuckets = size_t{1} << kTopBits;
  struct Move {
    unsigned from, to;
    uint64_t mask;
  };

  static bool before(const Entry& x, const Entry& y) { return x.bits != y.bits ? x.bits < y.bits : x.index < y.index; }

  // Sorts entries that agree on their top 8 bits: by as many of the next
  // bits as give about one entry a sub-bucket (12 at most), then by
  // comparison within each sub-bucket.
  static void sort_bucket(std::span<Entry> bucket, std::vector<uint32_t>& starts, std::vector<Entry>& scratch) {
    if (bucket.size() <= 32) {
      std::sort(bucket.begin(), bucket.end(), before);
      return;
    }
    const auto bits = std::min(kMaxSubBits, static_cast<unsigned>(std::bit_width(bucket.size())));
    const size_t buckets = size_t{1} << bits;
    const unsigned shift = 64 - kTopBits - bits;
    auto sub = [&](const Entry& e) { return (e.bits >> shift) & (buckets - 1); };
    std::fill(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(buckets) + 1, 0);
    for (const Entry& e : bucket) ++starts[sub(e) + 1];
    for (size_t b = 1; b <= buckets; ++b) starts[b] += starts[b - 1];
    scratch.resize(bucket.size());
    for (const Entry& e : bucket) scratch[starts[sub(e)]++] = e;
    std::copy(scratch.begin(), scratch.end(), bucket.begin());
    for (size_t b = 0, begin = 0; b < buckets; begin = starts[b++]) {
      if (starts[b] - begin > 1) std::sort(bucket.begin() + begin, bucket.begin() + starts[b], before);
    }
  }

  std::vector<Move> moves_;
  unsigned key_bits_ = 0;
};

// visit(i, j) for enough pairs of sorted entries within distance that their
// union connects every cluster: in each run of equal keys, all pairs,
// except that of equal fingerprints only the first is paired with the
// others (a template stub repeated 10,000 times is 10,000 pairs, not 10^8).
template <class Visit>
void for_each_linking_pair(std::span<const PermutedTable::Entry> e, unsigned key_bits, unsigned distance,
                           Visit&& visit) {
  const unsigned shift = 64 - key_bits;  // key_bits >= 1
  for (size_t begin = 0, end = 0; begin < e.size(); begin = end) {
    const uint64_t key = e[begin].bits >> shift;
    end = begin + 1;
    while (end < e.size() && e[end].bits >> shift == key) ++end;
    for (size_t i = begin; i < end;) {
      size_t same = i + 1;
      for (; same < end && e[same].bits == e[i].bits; ++same) visit(e[i].index, e[same].index);
      for (size_t j = same; j < end;) {
        if (hamming(e[i].bits, e[j].bits) <= distance) visit(e[i].index, e[j].index);
        const uint64_t kind = e[j].bits;
        while (j < end && e[j].bits == kind) ++j;
      }
      i = same;
    }
  }
}

// Where a key's entries lie among a table's sorted entries: the first
// entry of each value of the key's top bits (as many bits as spread the
// entries out), from which the entries of one key are adjacent.
class KeyIndex {
 public:
  KeyIndex(std::span<const PermutedTable::Entry> entries, unsigned key_bits)
      : entries_(entries),
        key_shift_(64 - key_bits),
        bucket_shift_(64 - std::max(1u, std::min({key_bits, 24u, static_cast<unsigned>(std::bit_width(entries.size()))}))),
        first_((size_t{1} << (64 - bucket_shift_)) + 1, 0) {
    for (const PermutedTable::Entry& e : entries) ++first_[(e.bits >> bucket_shift_) + 1];
    for (size_t b = 1; b < first_.size(); ++b) first_[b] += first_[b - 1];
  }

  // visit(index) for each entry with the key of bits within distance of it.
  template <class Visit>
  void for_each_near(uint64_t bits, unsigned distance, Visit&& visit) const {
    const uint64_t bucket = bits >> bucket_shift_, key = bits >> key_shift_;
    for (uint32_t e = first_[bucket]; e < first_[bucket + 1]; ++e) {
      if (entries_[e].bits >> key_shift_ == key && hamming(entries_[e].bits, bits) <= distance) {
        visit(entries_[e].index);
      }
    }
  }

 private:
  std::span<const PermutedTable::Entry> entries_;
  unsigned key_shift_, bucket_shift_;
  std::vector<uint32_t> first_;
};

struct Clustering {
  std::vector<uint32_t> root;     // per fingerprint: the smallest index of its cluster
  std::vector<DocId> known_near;  // per fingerprint: the smallest cluster of a known doc within distance
};

// Clusters fps and looks them up in the live docs of known segments, a
// pass through each table for both: the fresh fingerprints sorted, the
// known ones streamed past them. Nothing is kept between commits, so a
// commit costs a pass over the index's fingerprints per table, not a sort
// of them. The tables are independent: up to
// `threads` are sorted and scanned at once, each in buffers of its own,
// and only the pairs they find meet under a lock.
// The tables of a layout: the blocks' first bits (64 at the end) and each
// choice of blocks - distance key blocks as a mask.
struct Layout {
  std::vector<unsigned> lo;
  std::vector<std::vector<char>> keys;

  Layout(unsigned blocks, unsigned distance) {
    if (blocks <= distance || blocks > 64) {
      throw ArgumentError("near-duplicates", std::to_string(blocks) + " blocks at distance " + std::to_string(distance));
    }
    for (unsigned b = 0; b <= blocks; ++b) lo.push_back(b * 64 / blocks);
    std::vector<char> key(blocks, 0);
    std::fill(key.begin(), key.begin() + (blocks - distance), 1);
    do keys.push_back(key);  // prev_permutation walks every mask from the first blocks on
    while (std::prev_permutation(key.begin(), key.end()));
  }
  PermutedTable table(size_t t) const { return PermutedTable(lo, keys[t]); }
};

size_t count_present(std::span<const uint64_t> fps) {
  return static_cast<size_t>(std::count_if(fps.begin(), fps.end(), [](uint64_t fp) { return fp != kNoFingerprint; }));
}

Clustering cluster(std::span<const uint64_t> fps, std::span<const IndexReader::Segment* const> known,
                   unsigned distance, unsigned blocks, unsigned threads) {
  size_t known_count = 0;
  for (const IndexReader::Segment* s : known) known_count += s->reader->fingerprints().values().size();
  const Layout layout(blocks ? blocks : cluster_blocks(fps.size(), distance, known_count), distance);
  const size_t present = count_present(fps);

  SmallestRoot sets(fps.size());
  Clustering out;
  out.known_near.assign(fps.size(), kNoMoreDocs);
  std::mutex mu;  // over sets and out
  auto table_pass = [&](size_t t) {
    const PermutedTable table = layout.table(t);
    std::vector<PermutedTable::Entry> entries, scratch;
    table.sort(fps, present, entries, scratch);
    for_each_linking_pair(entries, table.key_bits(), distance, [&](uint32_t a, uint32_t b) {
      std::lock_guard lock(mu);
      sets.join(a, b);
    });
    if (known.empty()) return;
    const KeyIndex index(entries, table.key_bits());
    for (const IndexReader::Segment* segment : known) {
      const std::span<const uint64_t> old = segment->reader->fingerprints().values();
      for (uint32_t c = 0; c < old.size(); ++c) {
        if (old[c] == kNoFingerprint) continue;
        index.for_each_near(table.permute(old[c]), distance, [&](uint32_t i) {
          if (!segment->is_live(c)) return;
          std::lock_guard lock(mu);
          out.known_near[i] = std::min(out.known_near[i], segment->cluster(c));
        });
      }
    }
  };
  if (present > 0) parallel_for(layout.keys.size(), std::max(1u, threads), table_pass);
  out.root.resize(fps.size());
  for (uint32_t i = 0; i < out.root.size(); ++i) out.root[i] = sets.find(i);
  return out;
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> near_pairs(std::span<const uint64_t> fingerprints, unsigned distance,
                                                      unsigned blocks) {
  const Layout layout(blocks ? blocks : cluster_blocks(fingerprints.size(), distance), distance);
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<PermutedTable::Entry> entries, scratch;
  for (size_t t = 0; t < layout.keys.size(); ++t) {
    const PermutedTable table = layout.table(t);
    table.sort(fingerprints, count_present(fingerprints), entries, scratch);
    const unsigned shift = 64 - table.key_bits();
    for (size_t begin = 0, end = 0; begin < entries.size(); begin = end) {
      end = begin + 1;
      while (end < entries.size() && entries[end].bits >> shift == entries[begin].bits >> shift) ++end;
      for (size_t i = begin; i < end; ++i) {
        for (size_t j = i + 1; j < end; ++j) {
          if (hamming(entries[i].bits, entries[j].bits) > distance) continue;
          pairs.emplace_back(std::min(entries[i].index, entries[j].index), std::max(entries[i].index, entries[j].index));
        }
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

std::vector<uint32_t> cluster_fingerprints(std::span<const uint64_t> fingerprints, unsigned distance,
                                           unsigned blocks, unsigned threads) {
  return cluster(fingerprints, {}, distance, blocks, threads).root;
}

std::vector<std::vector<DocId>> cluster_ids_of(std::span<const IndexReader::Segment* const> fresh,
                                               std::span<const IndexReader::Segment* const> known, unsigned distance,
                                               unsigned blocks, unsigned threads) {
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
  const Clustering c = cluster(live, known, distance, blocks, threads);
  // A component's id: the smallest of its docs' global ids and of the ids of
  // the older clusters any of them is near.
  for (size_t i = 0; i < live.size(); ++i) id[c.root[i]] = std::min(id[c.root[i]], c.known_near[i]);
  for (size_t i = 0; i < id.size(); ++i) id[i] = id[c.root[i]];  // root[i] <= i: its id is final
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
