#include "index/reader/segment_reader.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "util/bytes.h"
#include "index/format/norms.h"
#include "index/format/segment_files.h"

namespace fts {

struct SegmentReader::Files {
  MappedFile post, pos, dict, docs, norms;
  std::optional<MappedFile> bloom, urls, fingerprints, cluster_ids;
};

namespace {

SegmentData data_of(const SegmentReader::Files& f, const std::string& name) {
  return SegmentData{f.post.payload(), f.pos.payload(), f.dict.payload(), f.docs.payload(), f.norms.payload(),
                     f.bloom ? f.bloom->payload() : std::span<const uint8_t>(),
                     f.urls ? f.urls->payload() : std::span<const uint8_t>(),
                     f.fingerprints ? f.fingerprints->payload() : std::span<const uint8_t>(),
                     f.cluster_ids ? f.cluster_ids->payload() : std::span<const uint8_t>(), name, f.post.version(),
                     f.dict.version(), f.norms.version()};
}

}  // namespace

std::shared_ptr<const SegmentReader> SegmentReader::open(const std::string& dir, const std::string& name, bool bloom,
                                                         bool urls, NearDupeFiles dupes) {
  auto files = std::make_unique<Files>();
  files->post = MappedFile(segment_file(dir, name, "post"), FileKind::kPostings);
  files->pos = MappedFile(segment_file(dir, name, "pos"), FileKind::kPositions);
  files->dict = MappedFile(segment_file(dir, name, "dict"), FileKind::kTermDict);
  files->docs = MappedFile(segment_file(dir, name, "docs"), FileKind::kDocStore);
  files->norms = MappedFile(segment_file(dir, name, "norms"), FileKind::kNorms);
  if (bloom) files->bloom.emplace(segment_file(dir, name, kBloomExtension), FileKind::kBloom);
  if (urls) files->urls.emplace(segment_file(dir, name, kUrlsExtension), FileKind::kUrls);
  if (dupes != NearDupeFiles::kNone) {
    files->fingerprints.emplace(segment_file(dir, name, kFingerprintsExtension), FileKind::kFingerprints);
  }
  if (dupes == NearDupeFiles::kClusters) {
    files->cluster_ids.emplace(segment_file(dir, name, kClusterIdsExtension), FileKind::kClusterIds);
  }
  auto reader = std::make_shared<SegmentReader>(data_of(*files, dir + "/" + name));
  reader->files_ = std::move(files);  // the maps outlive the spans into them
  return reader;
}

SegmentReader::SegmentReader(const SegmentData& data) : data_(data), post_path_(data.name + ".post") {
  ByteReader r(data.norms.data(), data.norms.data() + data.norms.size());
  if (!r.get_u32(doc_count_) || !r.get_u64(total_length_[0]) || !r.get_u64(total_length_[1]) ||
      !r.get_u64(total_length_[2])) {
    throw_corrupt(data.name + ".norms", 0, "norms header truncated");
  }
  // The shortest lengths bound every score of the segment from above
  // (top-k pruning). Format 4 stores them; before, opening scanned the
  // norms for them (12 M instructions a million docs).
  const bool stored_shortest = data.norms_version >= 4;
  if (stored_shortest && (!r.get_u32(shortest_length_[0]) || !r.get_u32(shortest_length_[1]) ||
                          !r.get_u32(shortest_length_[2]))) {
    throw_corrupt(data.name + ".norms", 0, "norms header truncated");
  }
  const bool any_column = data.norms_version >= kFirstVersionWithAnyColumn;
  const bool long_table = data.norms_version >= kFirstVersionWithLongTable;
  const uint64_t column_end = uint64_t(doc_count_) * (any_column ? 5 : 4);
  uint64_t expected = column_end;
  uint32_t long_docs = 0;
  if (long_table && r.remaining() >= column_end + 4) {
    std::memcpy(&long_docs, r.pos() + column_end, 4);
    expected += long_any_table_bytes(std::min(long_docs, doc_count_), doc_count_);
  }
  if (r.remaining() != expected || long_docs > doc_count_) {
    throw_corrupt(data.name + ".norms", stored_shortest ? kNormsHeaderBytes : kNormsHeaderBytesBefore4,
                  "norms hold " + std::to_string(r.remaining()) + " bytes for " + std::to_string(doc_count_) + " docs");
  }
  norms_ = r.pos();
  if (any_column) any_lengths_ = norms_ + size_t{doc_count_} * 4;
  if (long_table) long_any_lengths_ = LongAnyLengths(norms_ + column_end, doc_count_);
  // Opening does not read the norms past this header (their checksum is
  // verified by check() and before a merge rewrites them: at 6,000,000
  // docs reading 24 MB made a quarter of a cold query). Damaged lengths
  // give wrong scores, never a crash; the header's invariants catch most
  // damage to the shortest lengths, which pruning trusts.
  if (stored_shortest) {
    const uint32_t* shortest = shortest_length_;
    bool sane = total_length_[0] == total_length_[1] + total_length_[2] &&
                shortest[0] >= shortest[1] + shortest[2] && shortest[1] <= 65535 && shortest[2] <= 65535;
    for (int f = 0; f < 3; ++f) sane = sane && uint64_t{shortest[f]} * doc_count_ <= total_length_[f];
    if (!sane) throw_corrupt(data.name + ".norms", kNormsHeaderBytesBefore4, "norms header inconsistent");
  } else {
    const NormsScan scan = scan_norms(norms_, nullptr, doc_count_);
    std::copy(scan.shortest, scan.shortest + 3, shortest_length_);
  }
  dict_ = TermDictReader(data.term_dict, data.name + ".dict", data.dict_version);
  if (!data.bloom.empty()) bloom_ = BloomFilter(data.bloom, data.name + ".bloom");
  store_ = DocStoreReader(data.doc_store, data.name + ".docs");
  if (store_.size() != doc_count_) {
    throw_corrupt(data.name + ".docs", 0,
                  "doc store holds " + std::to_string(store_.size()) + " docs, norms " + std::to_string(doc_count_));
  }
  if (!data.urls.empty()) urls_ = UrlTable(data.urls, doc_count_, data.name + ".urls");
  if (!data.fingerprints.empty()) fingerprints_ = Fingerprints(data.fingerprints, doc_count_, data.name + ".sim");
  if (!data.cluster_ids.empty()) cluster_ids_ = ClusterIds(data.cluster_ids, doc_count_, data.name + ".dup");
}

std::vector<DocId> SegmentReader::docs_with_url(std::string_view url) const {
  std::vector<DocId> docs;
  urls_.for_each_candidate(url, [&](DocId d) {
    if (store_.get(d).url == url) docs.push_back(d);  // a hash collision fails here
  });
  return docs;
}

SegmentReader::~SegmentReader() = default;

std::optional<TermInfo> SegmentReader::lookup(Field field, std::string_view term) const {
  // Keys are short: build them on the stack rather than allocate.
  char buf[256];
  if (term.size() + 1 <= sizeof buf) {
    buf[0] = static_cast<char>(field);
    std::memcpy(buf + 1, term.data(), term.size());
    const std::string_view key(buf, term.size() + 1);
    return lookup_key(key, bloom_hash(key));
  }
  const std::string key = term_key(field, term);
  return lookup_key(key, bloom_hash(key));
}

PostingsCursor SegmentReader::cursor(Field field, const TermInfo& info) const {
  static const std::span<const uint8_t> kNone;
  return PostingsCursor(data_.postings, field == Field::kAny ? kNone : data_.positions, info, post_path_,
                        data_.postings_version);
}

void SegmentReader::release_postings_pages() const noexcept {
  if (!files_) return;
  for (const MappedFile* f : {&files_->post, &files_->pos, &files_->dict}) f->release_pages();
}

void SegmentReader::release_stored_pages() const noexcept {
  if (files_) files_->docs.release_pages();
}

void SegmentReader::verify_norms_checksum() const {
  if (files_) files_->norms.verify_checksum();
}

void SegmentReader::verify_stored_checksums() const {
  if (!files_) return;
  files_->docs.verify_checksum();
  if (files_->urls) files_->urls->verify_checksum();
}

void SegmentReader::check() const {
  if (files_) {
    for (const MappedFile* f : {&files_->post, &files_->pos, &files_->dict, &files_->docs, &files_->norms}) {
      f->verify_checksum();
    }
    if (files_->bloom) files_->bloom->verify_checksum();
    if (files_->urls) files_->urls->verify_checksum();
    if (files_->fingerprints) files_->fingerprints->verify_checksum();
    if (files_->cluster_ids) files_->cluster_ids->verify_checksum();
  }
  // Opening read only the tails of the dictionary and the doc store.
  dict_.check();
  store_.check();
  if (!urls_.empty()) {
    const std::string path = data_.name + ".urls";
    urls_.check(path);
    for (DocId d = 0; d < doc_count_; ++d) {
      bool found = false;
      urls_.for_each_candidate(store_.get(d).url, [&](DocId c) { found = found || c == d; });
      if (!found) throw_corrupt(path, 0, "doc " + std::to_string(d) + "'s url is not in the url table");
    }
  }
  // Pruning trusts the stored shortest lengths: a longer one than the
  // norms hold would drop hits from the top k.
  const NormsScan norms = scan_norms(norms_, any_lengths_, doc_count_);
  if (!std::equal(norms.shortest, norms.shortest + 3, shortest_length_)) {
    throw_corrupt(data_.name + ".norms", kNormsHeaderBytesBefore4, "stored shortest lengths disagree with the norms");
  }
  if (norms.first_wrong_byte != UINT32_MAX) {
    throw_corrupt(data_.name + ".norms", kNormsHeaderBytes + size_t{doc_count_} * 4 + norms.first_wrong_byte,
                  "doc " + std::to_string(norms.first_wrong_byte) + "'s length byte disagrees with its field lengths");
  }
  if (data_.norms_version >= kFirstVersionWithLongTable) {
    const size_t at = size_t{doc_count_} * 5;
    const std::string want = long_any_table(norms_, doc_count_);
    if (want.size() != data_.norms.size() - kNormsHeaderBytes - at ||
        std::memcmp(want.data(), norms_ + at, want.size()) != 0) {
      throw_corrupt(data_.name + ".norms", kNormsHeaderBytes + at, "the long docs' lengths disagree with their field lengths");
    }
  }
  // Structure: every term's postings decode, doc ids stay in range and
  // ascending, freqs are positive, positions lie inside the field, and
  // each block's impact bounds its docs (else top-k pruning would lose hits).
  std::vector<uint32_t> positions;
  for (auto it = dict_.begin(); it.valid(); it.next()) {
    if (!bloom_.may_contain(it.key())) throw_corrupt(data_.name + ".bloom", 0, "a dictionary key is not in the Bloom filter");
    auto field = static_cast<Field>(it.key().empty() ? 255 : uint8_t(it.key()[0]));
    if (field != Field::kAny && field != Field::kTitle && field != Field::kAbstract) {
      throw_corrupt(data_.name + ".dict", 0, "term with unknown field " + std::to_string(int(field)));
    }
    PostingsCursor c = cursor(field, it.info());
    uint32_t seen = 0;
    for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
      if (d >= doc_count_) {
        throw_corrupt(data_.name + ".post", it.info().postings_offset,
                      "doc id " + std::to_string(d) + " beyond the segment's " + std::to_string(doc_count_) + " docs");
      }
      if (c.freq() == 0) throw_corrupt(data_.name + ".post", it.info().postings_offset, "zero term frequency");
      if (const int column = c.impact_column(field); column >= 0) {
        const double part = bm25_length_part(c.freq(), field_length(field, d), c.reference_average(column));
        if (part > impact_value(c.block_bound(d, column).impact) || part > impact_value(c.term_impact(column))) {
          throw_corrupt(data_.name + ".post", it.info().postings_offset,
                        "block impact below the score of doc " + std::to_string(d));
        }
      }
      if (field != Field::kAny) {
        c.positions(positions);
        uint32_t len = field_length(field, d);
        if (!positions.empty() && positions.back() >= len && len < 65535) {
          throw_corrupt(data_.name + ".pos", it.info().positions_offset, "position beyond the field's length");
        }
      }
      ++seen;
    }
    if (seen != it.info().doc_freq) {
      throw_corrupt(data_.name + ".post", it.info().postings_offset, "postings hold " + std::to_string(seen) +
                                                                         " docs, dictionary says " +
                                                                         std::to_string(it.info().doc_freq));
    }
  }
  for (DocId d = 0; d < store_.size(); ++d) store_.get(d);
}

}  // namespace fts
