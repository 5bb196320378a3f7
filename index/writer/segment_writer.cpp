#include "index/writer/segment_writer.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "util/bytes.h"
#include "index/format/bloom_filter.h"
#include "index/format/doc_id_map.h"
#include "index/format/fingerprints.h"
#include "index/format/postings.h"
#include "index/format/segment_files.h"
#include "index/format/term_dict.h"

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

// TermInfos of the field lists a merge writes with their term's kAny key,
// handed to the field keys later (every field visits terms in the same
// order). A term whose docs in a field were all deleted has no list there.
class SharedPostingsQueue {
 public:
  void push(std::string_view term, const TermInfo& info) { entries_.push_back({std::string(term), info}); }
  // The list of term, if the merge wrote one.
  std::optional<TermInfo> pop(std::string_view term) {
    if (next_ >= entries_.size() || entries_[next_].term != term) return std::nullopt;
    return entries_[next_++].info;
  }

 private:
  struct Entry {
    std::string term;
    TermInfo info;
  };
  std::vector<Entry> entries_;
  size_t next_ = 0;
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

}  // namespace

void write_norms(const std::string& path, const std::vector<uint32_t>& lengths) {
  FileWriter out(path, FileKind::kNorms);
  uint64_t totals[3] = {0, 0, 0};
  for (size_t i = 0; i < lengths.size(); i += 2) {
    totals[1] += lengths[i];
    totals[2] += lengths[i + 1];
  }
  totals[0] = totals[1] + totals[2];
  std::string buf;
  put_u32(buf, static_cast<uint32_t>(lengths.size() / 2));
  for (uint64_t t : totals) put_u64(buf, t);
  for (uint32_t len : lengths) {
    uint16_t v = saturate(len);
    buf.append(reinterpret_cast<const char*>(&v), 2);
  }
  out.write(buf.data(), buf.size());
  out.finish();
}

SegmentWriter::SegmentWriter(std::string dir, std::string name, bool fingerprints)
    : dir_(std::move(dir)), name_(std::move(name)), fingerprinted_(fingerprints) {
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
      if (slot > 0 && t.fields[slot - 1].doc_freq == 0) continue;
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

SegmentInfo merge_segments(const std::string& dir, const std::vector<IndexReader::Segment>& inputs,
                           const std::string& name) {
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
        for (DocId d = 0; d < seg.doc_count(); ++d) {
          if (++read % kReleaseEveryDocs == 0) {
            for (const auto& input : inputs) input.reader->release_stored_pages();
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

  std::vector<TermDictReader::Iterator> its;
  for (const auto& seg : inputs) its.push_back(seg.reader->terms().begin());
  DecodedPostings out, field_lists[2];
  SharedPostingsQueue shared[2];  // title, abstract
  std::vector<uint32_t> doc_positions;
  std::string key;
  uint64_t read_since_release = 0;
  for (;;) {
    if (read_since_release >= kReleaseEveryPostings) {
      for (const auto& input : inputs) input.reader->release_postings_pages();
      read_since_release = 0;
    }
    // The smallest key among the inputs; k is small, so a linear scan.
    const std::string_view* smallest = nullptr;
    std::string_view min_key;
    for (auto& it : its) {
      if (it.valid() && (!smallest || it.key() < min_key)) {
        min_key = it.key();
        smallest = &min_key;
      }
    }
    if (!smallest) break;
    key.assign(min_key);
    if (key.empty()) throw std::logic_error("merge: empty dictionary key");
    const auto key_field = static_cast<Field>(key[0]);
    if (key_field != Field::kAny) {
      // Written with its term's kAny key (kAny keys sort first, terms in the
      // same order in every field).
      for (auto& it : its) {
        if (it.valid() && it.key() == key) it.next();
      }
      if (auto info = shared[key_field == Field::kTitle ? 0 : 1].pop(std::string_view(key).substr(1))) {
        files.add_key(key, *info);
      }
      continue;
    }
    // As in SegmentWriter::finish: the term's title and abstract lists, then
    // its kAny list unless it occurs in one field only and shares that list.
    const std::string_view term = std::string_view(key).substr(1);
    TermInfo field_info[2];
    bool has[2] = {false, false};
    for (int f = 0; f < 2; ++f) {
      const Field field = f == 0 ? Field::kTitle : Field::kAbstract;
      DecodedPostings& list = field_lists[f];
      list.clear();
      for (size_t s = 0; s < its.size(); ++s) {
        if (!its[s].valid() || its[s].key() != key) continue;
        std::optional<TermInfo> found = inputs[s].reader->lookup(field, term);
        if (!found) continue;
        PostingsCursor c = inputs[s].reader->cursor(field, *found);
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
      field_info[f] = files.field_writer.write(list.docs, list.freqs, list.positions, &lengths,
                                               f == 0 ? Field::kTitle : Field::kAbstract, !has[1 - f]);
      shared[f].push(term, field_info[f]);
    }
    TermInfo info;
    if (has[0] != has[1]) {
      info = field_info[has[0] ? 0 : 1];
      info.positions_offset = 0;  // unused under kAny; 0 keeps its dictionary delta to one byte
    } else if (!has[0]) {
      // Every doc with the term was deleted: the term goes too.
      for (auto& it : its) {
        if (it.valid() && it.key() == key) it.next();
      }
      continue;
    }
    out.clear();
    for (size_t s = 0; s < its.size(); ++s) {
      if (!its[s].valid() || its[s].key() != key) continue;
      if (has[0] && has[1]) {
        PostingsCursor c = inputs[s].reader->cursor(Field::kAny, its[s].info());
        for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
          if (remap[s](d) == kNoMoreDocs) continue;
          out.docs.push_back(remap[s](d));
          out.freqs.push_back(c.freq());
        }
      }
      its[s].next();
    }
    if (has[0] && has[1]) info = files.any_writer.write(out.docs, out.freqs, {}, &lengths, Field::kAny);
    files.add_key(key, info);
  }
  files.finish();
  stored.join();
  if (stored_error) std::rethrow_exception(stored_error);
  return info;
}

}  // namespace fts
