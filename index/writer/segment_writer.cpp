#include "index/writer/segment_writer.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "fts/errors.h"
#include "util/bytes.h"
#include "index/format/bloom_filter.h"
#include "index/format/doc_id_map.h"
#include "index/format/fingerprints.h"
#include "index/format/norms.h"
#include "index/format/postings.h"
#include "index/format/segment_files.h"
#include "index/format/term_dict.h"
#include "index/format/word_pairs.h"

namespace fts {

namespace {

// Decoded postings of one term in one field.
struct DecodedPostings {
  std::vector<DocId> docs;
  std::vector<uint32_t> freqs, positions;
  void clear() {
    docs.clear();
    freqs.clear();
    positions.clear();
  }
};

// An input segment's doc ids in the merged segment (kNoMoreDocs: deleted,
// purged). Without deletes that is a shift: postings are walked doc by doc
// across the whole segment, and a table lookup per posting would miss the
// cache at every term (a quarter of a 1M-doc merge).
struct DocRemap {
  bool dense = true;
  DocId shift = 0;
  std::vector<DocId> ids;  // when not dense
  DocId operator()(DocId d) const { return dense ? d + shift : ids[d]; }
};

void decode(const Inverter::Postings& p, DecodedPostings& out) {
  out.clear();
  auto* begin = reinterpret_cast<const uint8_t*>(p.bytes.data());
  ByteReader r(begin, begin + p.bytes.size());
  DocId doc = 0;
  for (uint32_t i = 0; i < p.doc_freq; ++i) {
    uint32_t delta = 0, freq = 0;
    r.get_varint32(delta);
    r.get_varint32(freq);
    doc = i == 0 ? delta : doc + delta;
    out.docs.push_back(doc);
    out.freqs.push_back(freq);
    uint32_t pos = 0;
    for (uint32_t k = 0; k < freq; ++k) {
      uint32_t d = 0;
      r.get_varint32(d);
      pos += d;
      out.positions.push_back(pos);
    }
  }
}

// The union of title and abstract postings: docs with the term in either
// field, freq = title freq + abstract freq, no positions.
void merge_any(const DecodedPostings& a, const DecodedPostings& b, DecodedPostings& out) {
  out.clear();
  size_t i = 0, j = 0;
  while (i < a.docs.size() || j < b.docs.size()) {
    DocId da = i < a.docs.size() ? a.docs[i] : kNoMoreDocs;
    DocId db = j < b.docs.size() ? b.docs[j] : kNoMoreDocs;
    DocId d = std::min(da, db);
    uint32_t f = 0;
    if (da == d) f += a.freqs[i++];
    if (db == d) f += b.freqs[j++];
    out.docs.push_back(d);
    out.freqs.push_back(f);
  }
}

// The infos of one field's keys that a merge wrote, in term order, with
// their terms back to back in one string.
class TermInfoList {
 public:
  void push(std::string_view term, const TermInfo& info) {
    text_.append(term);
    ends_.push_back(text_.size());
    infos_.push_back(info);
  }
  size_t size() const { return infos_.size(); }
  std::string_view term(size_t i) const {
    const size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(text_).substr(begin, ends_[i] - begin);
  }
  const TermInfo& info(size_t i) const { return infos_[i]; }

 private:
  std::string text_;
  std::vector<size_t> ends_;
  std::vector<TermInfo> infos_;
};

// What merging a range of terms wrote: the infos of their keys per field
// (kAny, kTitle, kAbstract), each in term order.
struct PostingsFiles;
struct MergedTerms {
  // Where the kAny keys go when they may be written at once (the terms
  // merged first: kAny keys sort first); else they are kept in keys[0].
  PostingsFiles* dictionary = nullptr;
  TermInfoList keys[kFieldCount];
};

// Bytes spilled to an unlinked file beside the index and read back once:
// the upper half of a parallel merge's postings or positions, which held
// in memory would add their size to the merge's peak. Unlinked at once, the
// file goes with the process, however it ends.
class SpillSink : public Sink {
 public:
  explicit SpillSink(std::string path) : path_(std::move(path)), file_(std::fopen(path_.c_str(), "w+b")) {
    if (file_ == nullptr) throw IoError(path_, std::string("cannot create: ") + std::strerror(errno));
    std::remove(path_.c_str());
  }
  ~SpillSink() override { std::fclose(file_); }
  SpillSink(const SpillSink&) = delete;
  SpillSink& operator=(const SpillSink&) = delete;
  void write(const void* data, size_t size) override {
    if (std::fwrite(data, 1, size, file_) != size) throw IoError(path_, std::string("cannot write: ") + std::strerror(errno));
    size_ += size;
  }
  uint64_t offset() const override { return size_; }
  // Writes everything spilled to out.
  void copy_to(Sink& out) {
    // The buffered end is written here: a full disk shows as a failed write.
    if (std::fflush(file_) != 0) throw IoError(path_, std::string("cannot write: ") + std::strerror(errno));
    if (std::fseek(file_, 0, SEEK_SET) != 0) {
      throw IoError(path_, std::string("cannot read back: ") + std::strerror(errno));
    }
    std::vector<char> buffer(size_t(1) << 20);
    for (uint64_t left = size_; left > 0;) {
      const size_t n = std::fread(buffer.data(), 1, std::min<uint64_t>(left, buffer.size()), file_);
      if (n == 0) throw IoError(path_, "cannot read back: the file is shorter than written");
      out.write(buffer.data(), n);
      left -= n;
    }
  }

 private:
  std::string path_;
  std::FILE* file_;
  uint64_t size_ = 0;
};

// A merge reads its inputs through once, and the pages it has read would
// stay in its resident set to the end: at 6M docs the whole index, 1.7 GB
// beside the merge's own memory. Every so many postings (or stored docs) it
// drops them; the few still in use fault back in from the page cache.
constexpr uint64_t kReleaseEveryPostings = uint64_t(1) << 24;
constexpr uint64_t kReleaseEveryDocs = uint64_t(1) << 16;

uint16_t saturate(uint32_t v) { return static_cast<uint16_t>(std::min<uint32_t>(v, 65535)); }

// The files written from postings (postings, positions, dictionary and its
// Bloom filter) with their writers, as a segment flush and a merge both need them.
struct PostingsFiles {
  PostingsFiles(const std::string& dir, const std::string& name)
      : post(segment_file(dir, name, "post"), FileKind::kPostings),
        pos(segment_file(dir, name, "pos"), FileKind::kPositions),
        dict_file(segment_file(dir, name, "dict"), FileKind::kTermDict),
        bloom_path(segment_file(dir, name, kBloomExtension)) {}
  void add_key(std::string_view key, const TermInfo& info) {
    dict.add(key, info);
    bloom.add(key);
  }
  void finish() {
    dict.finish();
    post.finish();
    pos.finish();
    dict_file.finish();
    bloom.write(bloom_path);
  }

  FileWriter post, pos, dict_file;
  PostingsWriter any_writer{post, nullptr};
  PostingsWriter field_writer{post, &pos};
  TermDictWriter dict{dict_file};
  std::string bloom_path;
  BloomFilterWriter bloom;
};

// Appends an input's kAny list of a term to out, its docs renumbered and
// the deleted ones left out.
void append_any_list(const SegmentReader& input, const TermInfo& info, const DocRemap& remap, DecodedPostings& out) {
  PostingsCursor c = input.cursor(Field::kAny, info);
  for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
    if (remap(d) == kNoMoreDocs) continue;
    out.docs.push_back(remap(d));
    out.freqs.push_back(c.freq());
  }
}

// Merges the lists of the inputs' terms from first up to last (empty: to
// the end) through the two writers, and lists the keys it wrote in out.
// As in SegmentWriter::finish, a term's title and abstract lists are
// written together, then its kAny list unless it occurs in one field only
// and shares that list. Stops early (the caller then throws) once stop is
// set: the other half of a merge failed.
void merge_terms(const std::vector<IndexReader::Segment>& inputs, const std::vector<DocRemap>& remap,
                 const DocLengths& lengths, std::string_view first, std::string_view last,
                 PostingsWriter& any_writer, PostingsWriter& field_writer, MergedTerms& out,
                 const std::atomic<bool>& stop) {
  const std::string end = last.empty() ? std::string() : term_key(Field::kAny, last);
  std::vector<TermDictReader::Iterator> its;
  for (const auto& seg : inputs) its.push_back(seg.reader->terms().seek(term_key(Field::kAny, first)));
  // kAny keys sort first: a term's other keys come after them all.
  auto in_range = [&](const TermDictReader::Iterator& it) {
    if (!it.valid()) return false;
    if (it.key().empty()) throw std::logic_error("merge: empty dictionary key");
    return static_cast<Field>(it.key()[0]) == Field::kAny && (end.empty() || it.key() < end);
  };
  DecodedPostings any, field_lists[2];
  std::vector<uint32_t> doc_positions;
  std::vector<size_t> holders;  // the inputs with the term
  std::string key;
  uint64_t read_since_release = 0;
  while (!stop.load(std::memory_order_relaxed)) {
    if (read_since_release >= kReleaseEveryPostings) {
      for (const auto& input : inputs) input.reader->release_postings_pages();
      read_since_release = 0;
    }
    // The smallest key among the inputs; k is small, so a linear scan.
    bool found = false;
    std::string_view min_key;
    for (auto& it : its) {
      if (in_range(it) && (!found || it.key() < min_key)) {
        min_key = it.key();
        found = true;
      }
    }
    if (!found) break;
    key.assign(min_key);
    holders.clear();
    for (size_t s = 0; s < its.size(); ++s) {
      if (in_range(its[s]) && its[s].key() == key) holders.push_back(s);
    }
    const std::string_view term = std::string_view(key).substr(1);
    auto add_any_key = [&](const TermInfo& info) {
      if (out.dictionary) {
        out.dictionary->add_key(key, info);
      } else {
        out.keys[0].push(term, info);
      }
    };
    if (is_pair_term(term)) {  // a kAny list alone
      any.clear();
      for (const size_t s : holders) {
        append_any_list(*inputs[s].reader, its[s].info(), remap[s], any);
        its[s].next();
      }
      read_since_release += any.docs.size();
      if (!any.docs.empty()) add_any_key(any_writer.write(any.docs, any.freqs, {}, &lengths, Field::kAny));
      continue;
    }
    TermInfo field_info[2];
    bool has[2] = {false, false};
    for (int f = 0; f < 2; ++f) {
      const Field field = f == 0 ? Field::kTitle : Field::kAbstract;
      DecodedPostings& list = field_lists[f];
      list.clear();
      for (const size_t s : holders) {
        std::optional<TermInfo> info = inputs[s].reader->lookup(field, term);
        if (!info) continue;
        PostingsCursor c = inputs[s].reader->cursor(field, *info);
        for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
          if (remap[s](d) == kNoMoreDocs) continue;
          list.docs.push_back(remap[s](d));
          list.freqs.push_back(c.freq());
          c.positions(doc_positions);
          list.positions.insert(list.positions.end(), doc_positions.begin(), doc_positions.end());
        }
      }
      has[f] = !list.docs.empty();
      read_since_release += list.docs.size() + list.positions.size();
    }
    // Both fields are read first: a list kAny shares (the term is left in
    // one field) gets kAny impacts too.
    for (int f = 0; f < 2; ++f) {
      if (!has[f]) continue;
      const DecodedPostings& list = field_lists[f];
      field_info[f] = field_writer.write(list.docs, list.freqs, list.positions, &lengths,
                                         f == 0 ? Field::kTitle : Field::kAbstract, !has[1 - f]);
      out.keys[1 + f].push(term, field_info[f]);
    }
    const bool both = has[0] && has[1];
    any.clear();
    for (const size_t s : holders) {
      if (both) append_any_list(*inputs[s].reader, its[s].info(), remap[s], any);
      its[s].next();
    }
    if (!has[0] && !has[1]) continue;  // every doc with the term was deleted: the term goes too
    TermInfo info;
    if (both) {
      info = any_writer.write(any.docs, any.freqs, {}, &lengths, Field::kAny);
    } else {
      info = field_info[has[0] ? 0 : 1];
      info.positions_offset = 0;  // unused under kAny; 0 keeps its dictionary delta to one byte
    }
    add_any_key(info);
  }
}


}  // namespace

void write_norms(const std::string& path, const std::vector<uint32_t>& lengths) {
  const auto docs = static_cast<uint32_t>(lengths.size() / 2);
  uint64_t totals[3] = {0, 0, 0};
  std::string pairs, any_column;
  pairs.reserve(size_t{docs} * 4);
  any_column.reserve(docs);
  for (size_t i = 0; i < lengths.size(); i += 2) {
    totals[1] += lengths[i];
    totals[2] += lengths[i + 1];
    const uint16_t v[2] = {saturate(lengths[i]), saturate(lengths[i + 1])};
    pairs.append(reinterpret_cast<const char*>(v), 4);
    any_column.push_back(static_cast<char>(any_length_byte(v[0], v[1])));
  }
  totals[0] = totals[1] + totals[2];
  // The shortest saturated lengths, as the reader's check finds them.
  const NormsScan scan = scan_norms(reinterpret_cast<const uint8_t*>(pairs.data()), nullptr, docs);
  std::string header;
  put_u32(header, docs);
  for (uint64_t t : totals) put_u64(header, t);
  for (uint32_t s : scan.shortest) put_u32(header, s);
  FileWriter out(path, FileKind::kNorms);
  out.write(header.data(), header.size());
  out.write(pairs.data(), pairs.size());
  out.write(any_column.data(), any_column.size());
  const std::string long_table = long_any_table(reinterpret_cast<const uint8_t*>(pairs.data()), docs);
  out.write(long_table.data(), long_table.size());
  out.finish();
}

SegmentWriter::SegmentWriter(std::string dir, std::string name, bool fingerprints, const PairWords* pair_words)
    : dir_(std::move(dir)), name_(std::move(name)), inverter_(pair_words), fingerprinted_(fingerprints) {
  docs_file_ = std::make_unique<FileWriter>(segment_file(dir_, name_, "docs"), FileKind::kDocStore);
  docs_ = std::make_unique<DocStoreWriter>(*docs_file_);
}

SegmentWriter::~SegmentWriter() = default;

void SegmentWriter::add(const AnalyzedDoc& doc) {
  inverter_.add(doc);
  docs_->add(doc.title, doc.url, doc.abstract);
  urls_.add(doc.url);
  if (fingerprinted_) fingerprints_.push_back(doc.fingerprint);
}

SegmentInfo SegmentWriter::finish() {
  docs_->finish();
  docs_file_->finish();
  urls_.write(segment_file(dir_, name_, kUrlsExtension));

  PostingsFiles files(dir_, name_);
  const DocLengths lengths(inverter_.field_lengths());

  // A term found in one field only has the same docs and freqs under kAny
  // as in that field, so both keys share that field's list. Each term's
  // lists are written together (title, abstract, then kAny if not shared) so
  // the dictionary's offset deltas between neighbouring keys stay small.
  // Keys sort by field byte first: all kAny keys, then kTitle, then kAbstract.
  std::vector<uint32_t> ids = inverter_.sorted_term_ids();
  std::vector<TermInfo> infos[3];  // kAny, kTitle, kAbstract; by position in ids
  for (auto& v : infos) v.resize(ids.size());
  DecodedPostings title, abstract, any;
  for (size_t i = 0; i < ids.size(); ++i) {
    const Inverter::Term& t = inverter_.term(ids[i]);
    DecodedPostings* decoded[2] = {&title, &abstract};
    if (t.pair) {  // a kAny key alone: its positions only serve to count it per field
      for (int f = 0; f < 2; ++f) decode(t.fields[f], *decoded[f]);
      merge_any(title, abstract, any);
      infos[0][i] = files.any_writer.write(any.docs, any.freqs, {}, &lengths, Field::kAny);
      continue;
    }
    for (int f = 0; f < 2; ++f) {
      if (t.fields[f].doc_freq == 0) continue;
      decode(t.fields[f], *decoded[f]);
      const bool shared = t.fields[1 - f].doc_freq == 0;  // kAny reads this list too
      infos[1 + f][i] = files.field_writer.write(decoded[f]->docs, decoded[f]->freqs, decoded[f]->positions, &lengths,
                                                 f == 0 ? Field::kTitle : Field::kAbstract, shared);
    }
    if (t.fields[0].doc_freq == 0 || t.fields[1].doc_freq == 0) {
      infos[0][i] = infos[t.fields[0].doc_freq == 0 ? 2 : 1][i];
      infos[0][i].positions_offset = 0;  // unused under kAny; 0 keeps its dictionary delta to one byte
    } else {
      merge_any(title, abstract, any);
      infos[0][i] = files.any_writer.write(any.docs, any.freqs, {}, &lengths, Field::kAny);
    }
  }
  std::string key;
  for (Field field : {Field::kAny, Field::kTitle, Field::kAbstract}) {
    const int slot = field == Field::kAny ? 0 : field == Field::kTitle ? 1 : 2;
    for (size_t i = 0; i < ids.size(); ++i) {
      const Inverter::Term& t = inverter_.term(ids[i]);
      if (slot > 0 && (t.pair || t.fields[slot - 1].doc_freq == 0)) continue;
      key = term_key(field, t.text);
      files.add_key(key, infos[slot][i]);
    }
  }
  files.finish();
  write_norms(segment_file(dir_, name_, "norms"), inverter_.field_lengths());
  SegmentInfo info{name_, inverter_.doc_count()};
  if (fingerprinted_) {
    write_fingerprints(segment_file(dir_, name_, kFingerprintsExtension), fingerprints_);
    info.has_dupes = true;
  }
  return info;
}

// Where the largest input's lists are half written: a segment writes each
// term's lists together, in term order.
std::string merge_split_term(const std::vector<IndexReader::Segment>& inputs) {
  const SegmentReader* largest = nullptr;
  for (const auto& seg : inputs) {
    if (!largest || seg.reader->doc_count() > largest->doc_count()) largest = seg.reader.get();
  }
  const std::string any_prefix(1, static_cast<char>(Field::kAny));
  uint64_t last_offset = 0;
  largest->terms().for_each_prefix(any_prefix, [&](std::string_view, const TermInfo& info) {
    last_offset = std::max(last_offset, info.postings_offset);
  });
  std::string split;
  bool first = true;  // the first term would leave the lower half empty
  for (auto it = largest->terms().seek(any_prefix); it.valid() && it.key().starts_with(any_prefix); it.next()) {
    if (!first && it.info().postings_offset >= last_offset / 2) {
      split = it.key().substr(1);
      break;
    }
    first = false;
  }
  return split;
}

SegmentInfo merge_segments(const std::string& dir, const std::vector<IndexReader::Segment>& inputs,
                           const std::string& name, unsigned threads) {
  // Each input doc's local id in the merged segment, and the global id of
  // each merged doc.
  std::vector<DocRemap> remap(inputs.size());
  std::vector<DocId> globals;
  for (size_t s = 0; s < inputs.size(); ++s) {
    const auto& seg = inputs[s];
    remap[s].dense = seg.live_count() == seg.reader->doc_count();
    remap[s].shift = static_cast<DocId>(globals.size());
    if (!remap[s].dense) remap[s].ids.assign(seg.reader->doc_count(), kNoMoreDocs);
    for (DocId d = 0; d < seg.reader->doc_count(); ++d) {
      if (!seg.is_live(d)) continue;
      if (!globals.empty() && seg.global(d) <= globals.back()) {
        throw std::logic_error("merge: input segments out of doc-id order");
      }
      if (!remap[s].dense) remap[s].ids[d] = static_cast<DocId>(globals.size());
      globals.push_back(seg.global(d));
    }
  }
  SegmentInfo info{name, static_cast<uint32_t>(globals.size())};
  if (globals.empty()) return info;  // every doc deleted: no segment
  info.base = globals.front();
  info.has_id_map = globals.back() - globals.front() + 1 != globals.size();
  if (info.has_id_map) DocIdMap::write(segment_file(dir, name, "ids"), globals);

  // Norms, then the doc store and url table on a thread of their own beside
  // the postings: the two share nothing but the inputs, which are read-only.
  std::vector<uint32_t> raw_lengths;
  raw_lengths.reserve(2 * globals.size());
  std::vector<uint64_t> fingerprints;
  const bool fingerprinted = std::all_of(inputs.begin(), inputs.end(), [](const IndexReader::Segment& s) {
    return !s.reader->fingerprints().empty();
  });
  for (size_t s = 0; s < inputs.size(); ++s) {
    const SegmentReader& seg = *inputs[s].reader;
    seg.verify_norms_checksum();  // damaged lengths would pass on under a fresh checksum
    for (DocId d = 0; d < seg.doc_count(); ++d) {
      if (remap[s](d) == kNoMoreDocs) continue;
      raw_lengths.push_back(seg.field_length(Field::kTitle, d));
      raw_lengths.push_back(seg.field_length(Field::kAbstract, d));
      if (fingerprinted) fingerprints.push_back(seg.fingerprints()[d]);
    }
  }
  write_norms(segment_file(dir, name, "norms"), raw_lengths);
  if (fingerprinted) {
    write_fingerprints(segment_file(dir, name, kFingerprintsExtension), fingerprints);
    info.has_dupes = true;
  }
  std::exception_ptr stored_error;
  // A jthread: joined however the postings end (one left running would
  // terminate the process).
  std::jthread stored([&] {
    try {
      FileWriter docs_file(segment_file(dir, name, "docs"), FileKind::kDocStore);
      DocStoreWriter docs(docs_file);
      UrlTableWriter urls;
      uint64_t read = 0;
      for (size_t s = 0; s < inputs.size(); ++s) {
        const SegmentReader& seg = *inputs[s].reader;
        if (remap[s].dense && seg.has_url_table()) {
          // Every doc stays: the compressed blocks and the url hashes are
          // copied as they are (decompressing and compressing each doc
          // again was most of this thread's time), once their checksums
          // hold: a damaged block would pass on under a fresh checksum.
          seg.verify_stored_checksums();
          seg.release_stored_pages();
          const DocStoreReader& store = seg.doc_store();
          for (uint64_t b = 0; b < store.block_count(); ++b) {
            const StoredBlock block = store.block(b);
            docs.add_block(block);
            read += block.doc_count;
            if (read >= kReleaseEveryDocs) {
              for (const auto& input : inputs) input.reader->release_stored_pages();
              read = 0;
            }
          }
          urls.add_all(seg.url_table(), seg.name() + "." + kUrlsExtension);
          continue;
        }
        for (DocId d = 0; d < seg.doc_count(); ++d) {
          if (++read >= kReleaseEveryDocs) {
            for (const auto& input : inputs) input.reader->release_stored_pages();
            read = 0;
          }
          if (remap[s](d) == kNoMoreDocs) continue;
          StoredDoc doc = seg.doc_store().get(d);
          docs.add(doc.title, doc.url, doc.abstract);
          urls.add(doc.url);
        }
      }
      docs.finish();
      docs_file.finish();
      urls.write(segment_file(dir, name, kUrlsExtension));
    } catch (...) {
      stored_error = std::current_exception();
    }
  });

  PostingsFiles files(dir, name);
  const DocLengths lengths(raw_lengths);
  // With threads, the upper half of the terms is merged beside the lower
  // into files of its own, which then follow the lower half's: the output
  // is byte for byte that of one thread.
  MergedTerms lower, upper;
  lower.dictionary = &files;
  const std::string split = threads > 1 ? merge_split_term(inputs) : std::string();
  uint64_t upper_postings = 0, upper_positions = 0;  // where the upper half starts
  std::atomic<bool> failed = false;                  // either half: the other stops
  if (split.empty()) {
    merge_terms(inputs, remap, lengths, {}, {}, files.any_writer, files.field_writer, lower, failed);
  } else {
    SpillSink post(segment_file(dir, name, "post-upper.tmp")), pos(segment_file(dir, name, "pos-upper.tmp"));
    PostingsWriter any_writer(post, nullptr), field_writer(post, &pos);
    std::exception_ptr upper_error;
    {
      std::jthread upper_half([&] {
        try {
          merge_terms(inputs, remap, lengths, split, {}, any_writer, field_writer, upper, failed);
        } catch (...) {
          upper_error = std::current_exception();
          failed = true;
        }
      });
      try {
        merge_terms(inputs, remap, lengths, {}, split, files.any_writer, files.field_writer, lower, failed);
      } catch (...) {
        failed = true;
        throw;
      }
    }
    if (upper_error) std::rethrow_exception(upper_error);
    upper_postings = files.post.offset();
    upper_positions = files.pos.offset();
    post.copy_to(files.post);
    pos.copy_to(files.pos);
  }
  // The lower half's kAny keys are in the dictionary already; the upper
  // half's follow, then each field's keys of both halves.
  std::string key;
  for (const Field field : {Field::kAny, Field::kTitle, Field::kAbstract}) {
    const auto slot = static_cast<size_t>(field);
    for (const MergedTerms* part : {&lower, &upper}) {
      const TermInfoList& keys = part->keys[slot];
      for (size_t i = 0; i < keys.size(); ++i) {
        TermInfo info = keys.info(i);
        if (part == &upper) {
          info.postings_offset += upper_postings;
          if (field != Field::kAny) info.positions_offset += upper_positions;  // kAny keys have none
        }
        key = term_key(field, keys.term(i));
        files.add_key(key, info);
      }
    }
  }
  files.finish();
  stored.join();
  if (stored_error) std::rethrow_exception(stored_error);
  return info;
}

}  // namespace fts
