#include "index/reader/index_reader.h"

#include <algorithm>

#include "index/format/segment_files.h"
#include "index/format/shard_manifest.h"
#include "index/reader/word_pairs_check.h"

namespace fts {

namespace {

// previous: a snapshot whose unchanged segments and live docs are reused.
std::shared_ptr<const IndexReader> open_segments(const std::string& dir, const Manifest& m,
                                                 const IndexReader* previous) {
  std::vector<IndexReader::Segment> segments;
  uint64_t end = 0;
  for (const auto& info : m.segments) {
    IndexReader::Segment seg;
    const IndexReader::Segment* old = nullptr;
    if (previous) {
      for (const auto& p : previous->segments()) {
        if (p.reader->name() == dir + "/" + info.name) old = &p;
      }
    }
    if (old) {
      seg.reader = old->reader;
      seg.ids = old->ids;
    } else {
      seg.reader = SegmentReader::open(dir, info.name, info.has_bloom, info.has_urls,
                                       info.has_dupes ? NearDupeFiles::kClusters : NearDupeFiles::kNone);
    }
    if (seg.reader->doc_count() != info.doc_count || info.doc_count == 0) {
      throw IndexError(dir + "/" + info.name + ".norms", "holds " + std::to_string(seg.reader->doc_count()) +
                       " docs, the manifest says " + std::to_string(info.doc_count));
    }
    seg.base = info.base;
    if (info.has_id_map && !seg.ids) {
      seg.ids = std::make_shared<DocIdMap>(segment_file(dir, info.name, "ids"), info.doc_count);
      if (seg.ids->first() != info.base) {
        throw IndexError(segment_file(dir, info.name, "ids"), "first id " + std::to_string(seg.ids->first()) +
                         ", the manifest says " + std::to_string(info.base));
      }
    }
    seg.live_generation = info.live_generation;
    if (info.live_generation != 0) {
      if (old && old->live_generation == info.live_generation) {
        seg.live = old->live;
      } else {
        seg.live = std::make_shared<LiveDocs>(
            LiveDocs::read(live_docs_file(dir, info.name, info.live_generation), info.doc_count));
      }
      if (seg.live->deleted_count() != info.deleted) {
        throw IndexError(live_docs_file(dir, info.name, info.live_generation),
                         std::to_string(seg.live->deleted_count()) + " deleted docs, the manifest says " +
                         std::to_string(info.deleted));
      }
    }
    if (seg.base < end || uint64_t(seg.last()) >= m.next_doc_id || seg.last() >= kNoMoreDocs) {
      throw IndexError(dir + "/" + info.name, "doc ids out of order or beyond the next doc id");
    }
    end = uint64_t(seg.last()) + 1;
    segments.push_back(std::move(seg));
  }
  return std::make_shared<IndexReader>(dir, m, std::move(segments));
}

std::shared_ptr<const IndexReader> open_retrying(const std::string& dir, const IndexReader* previous) {
  // A commit may land between reading the manifest and mapping its segments,
  // and then removes the files the old manifest named. Mapped files stay
  // valid, but one not yet mapped is gone: read the new manifest and retry.
  for (int attempt = 0;; ++attempt) {
    Manifest m = read_manifest(dir);
    if (previous && m.generation == previous->generation()) return nullptr;
    try {
      return open_segments(dir, m, previous);
    } catch (const IndexError&) {
      if (attempt >= 20 || read_manifest(dir).generation == m.generation) throw;
    }
  }
}

// A sharded index: each shard opens (or reopens from previous's) on its own.
// Null when previous holds the same generation of every shard.
std::shared_ptr<const IndexReader> open_sharded(const std::string& dir, const IndexReader* previous) {
  const ShardManifest m = read_shard_manifest(dir);
  const auto* old = previous ? &previous->shards() : nullptr;
  if (old && old->size() != m.shards.size()) old = nullptr;  // rebuilt with other ranks
  std::vector<std::shared_ptr<const IndexReader>> shards;
  std::vector<DocId> bases;
  bool changed = !old;
  for (size_t i = 0; i < m.shards.size(); ++i) {
    const std::string shard_dir = dir + "/" + m.shards[i].name;
    auto shard = old && (*old)[i]->dir() == shard_dir ? IndexReader::reopen((*old)[i]) : IndexReader::open(shard_dir);
    changed = changed || shard != (*old)[i];
    if (!shard->shards().empty()) throw IndexError(shard_dir, "a shard is itself sharded");
    bases.push_back(m.shards[i].base);
    shards.push_back(std::move(shard));
  }
  if (!changed) return nullptr;
  return std::make_shared<IndexReader>(dir, std::move(shards), bases);
}

}  // namespace

std::optional<DocId> IndexReader::Segment::local(DocId global) const {
  if (ids) return global < offset ? std::nullopt : ids->local(global - offset);
  if (global < base || global - base >= reader->doc_count()) return std::nullopt;
  return global - base;
}

std::shared_ptr<const IndexReader> IndexReader::open(const std::string& dir) {
  if (shard_manifest_exists(dir)) return open_sharded(dir, nullptr);
  return open_retrying(dir, nullptr);
}

std::shared_ptr<const IndexReader> IndexReader::open(const std::string& dir, const Manifest& manifest,
                                                     const IndexReader* reuse) {
  return open_segments(dir, manifest, reuse);
}

std::shared_ptr<const IndexReader> IndexReader::reopen(const std::shared_ptr<const IndexReader>& previous) {
  auto next = previous->shards().empty() ? open_retrying(previous->dir(), previous.get())
                                         : open_sharded(previous->dir(), previous.get());
  return next ? next : previous;
}

IndexReader::IndexReader(std::string dir, const Manifest& m, std::vector<Segment> segments)
    : dir_(std::move(dir)),
      generation_(m.generation),
      next_doc_id_(m.next_doc_id),
      segments_(std::move(segments)),
      stopwords_(m.stopwords),
      pair_words_(m.pair_words) {
  for (const auto& s : segments_) {
    doc_count_ += s.reader->doc_count();
    live_count_ += s.live_count();
    for (int f = 0; f < 3; ++f) total_length_[f] += s.reader->total_field_length(static_cast<Field>(f));
  }
}

IndexReader::IndexReader(std::string dir, std::vector<std::shared_ptr<const IndexReader>> shards,
                         const std::vector<DocId>& bases)
    : dir_(std::move(dir)),
      generation_(0),
      next_doc_id_(0),
      shards_(std::move(shards)),
      stopwords_(shards_.empty() ? Stopwords::none() : shards_[0]->stopwords()) {
  if (!shards_.empty()) {
    // A pair list is read only where every segment holds it.
    std::vector<std::string> common;
    for (const auto& word : shards_[0]->pair_words().list()) {
      const auto pairs = [&](const auto& shard) { return shard->pair_words().contains(word); };
      if (std::all_of(shards_.begin(), shards_.end(), pairs)) common.push_back(word);
    }
    pair_words_ = PairWords(std::move(common));
  }
  uint64_t end = 0;
  for (size_t i = 0; i < shards_.size(); ++i) {
    const IndexReader& shard = *shards_[i];
    if (!(shard.stopwords() == stopwords_)) {
      throw IndexError(shard.dir(), "built with other stopwords than " + shards_[0]->dir());
    }
    if (bases[i] < end) {
      throw IndexError(shard_manifest_path(dir_), "shard " + shard.dir() + " starts at id " + std::to_string(bases[i]) +
                                                      ", inside the shard before it");
    }
    end = uint64_t(bases[i]) + shard.next_doc_id();
    if (end >= kNoMoreDocs) throw IndexError(shard.dir(), "doc ids beyond the id space");
    generation_ += shard.generation();  // every shard's grows with its commits
    for (Segment seg : shard.segments()) {
      seg.base += bases[i];
      seg.offset += bases[i];
      segments_.push_back(std::move(seg));
    }
    doc_count_ += shard.doc_count_;
    live_count_ += shard.live_count_;
    for (int f = 0; f < kFieldCount; ++f) total_length_[f] += shard.total_length_[f];
  }
  next_doc_id_ = static_cast<DocId>(end);
}

uint64_t IndexReader::doc_freq(Field field, std::string_view term,
                               std::vector<std::optional<TermInfo>>* entries) const {
  uint64_t df = 0;
  const std::string key = term_key(field, term);
  const uint64_t hash = bloom_hash(key);
  if (entries) entries->reserve(entries->size() + segments_.size());
  for (const auto& s : segments_) {
    const std::optional<TermInfo> info = s.reader->lookup_key(key, hash);
    if (info) df += info->doc_freq;
    if (entries) entries->push_back(info);
  }
  return df;
}

double IndexReader::average_field_length(Field field) const {
  return doc_count_ ? double(total_length_[static_cast<int>(field)]) / doc_count_ : 0.0;
}

std::optional<std::pair<const IndexReader::Segment*, DocId>> IndexReader::find(DocId doc) const {
  // Segments are in ascending, disjoint id ranges: the first whose last id
  // is >= doc is the only one that may hold it.
  auto it = std::lower_bound(segments_.begin(), segments_.end(), doc,
                             [](const Segment& s, DocId d) { return s.last() < d; });
  if (it == segments_.end()) return std::nullopt;
  auto local = it->local(doc);
  if (!local) return std::nullopt;
  return std::make_pair(&*it, *local);
}

bool IndexReader::is_live(DocId doc) const {
  auto found = find(doc);
  return found && found->first->is_live(found->second);
}

StoredDoc IndexReader::stored(DocId doc) const {
  if (auto found = find(doc)) return found->first->reader->doc_store().get(found->second);
  // Ids come from postings: one past the index means they are damaged.
  throw IndexError(dir_, "doc id " + std::to_string(doc) + " is not in the index (damaged postings)");
}

void IndexReader::check() const {
  if (!shards_.empty()) {
    const ShardManifest m = read_shard_manifest(dir_);
    if (m.shards.size() != shards_.size()) {
      throw IndexError(shard_manifest_path(dir_), "names " + std::to_string(m.shards.size()) + " shards, " +
                                                      std::to_string(shards_.size()) + " are open");
    }
    for (const auto& shard : shards_) shard->check();
    return;
  }
  Manifest m = read_manifest(dir_);
  std::optional<unsigned> distance;  // of the near-duplicate clusters: one for the index
  for (const auto& s : segments_) {
    s.reader->check();
    check_word_pairs(*s.reader, pair_words_);
    if (s.ids) s.ids->verify_checksum();
    const ClusterIds& clusters = s.reader->cluster_ids();
    if (clusters.empty()) continue;
    const std::string path = dir_ + "/" + s.reader->name() + ".dup";
    if (distance && *distance != clusters.distance()) {
      throw IndexError(path, "near-duplicate distance " + std::to_string(clusters.distance()) +
                                 ", other segments " + std::to_string(*distance));
    }
    distance = clusters.distance();
    // A cluster is named by its first doc: never a later one.
    for (DocId d = 0; d < s.reader->doc_count(); ++d) {
      if (s.cluster(d) > s.global(d)) {
        throw IndexError(path, "doc " + std::to_string(s.global(d)) + " in the cluster of a later doc " +
                                   std::to_string(s.cluster(d)));
      }
    }
  }
  // Live docs were verified (checksum, range) when read; read them again
  // from the files, as the manifest names them now.
  for (const auto& info : m.segments) {
    if (info.live_generation == 0) continue;
    LiveDocs live = LiveDocs::read(live_docs_file(dir_, info.name, info.live_generation), info.doc_count);
    if (live.deleted_count() != info.deleted) {
      throw IndexError(live_docs_file(dir_, info.name, info.live_generation),
                       std::to_string(live.deleted_count()) + " deleted docs, the manifest says " +
                       std::to_string(info.deleted));
    }
  }
}

}  // namespace fts
