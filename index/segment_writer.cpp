#include "index/segment_writer.h"

#include <algorithm>

#include "index/bytes.h"
#include "index/postings.h"
#include "index/segment_files.h"
#include "index/term_dict.h"

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

uint16_t saturate(uint32_t v) { return static_cast<uint16_t>(std::min<uint32_t>(v, 65535)); }

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

SegmentWriter::SegmentWriter(std::string dir, std::string name)
    : dir_(std::move(dir)), name_(std::move(name)) {
  docs_file_ = std::make_unique<FileWriter>(segment_file(dir_, name_, "docs"), FileKind::kDocStore);
  docs_ = std::make_unique<DocStoreWriter>(*docs_file_);
}

SegmentWriter::~SegmentWriter() = default;

void SegmentWriter::add(const AnalyzedDoc& doc) {
  inverter_.add(doc);
  docs_->add(doc.title, doc.url, doc.abstract);
}

SegmentInfo SegmentWriter::finish() {
  docs_->finish();
  docs_file_->finish();

  FileWriter post(segment_file(dir_, name_, "post"), FileKind::kPostings);
  FileWriter pos(segment_file(dir_, name_, "pos"), FileKind::kPositions);
  FileWriter dict_file(segment_file(dir_, name_, "dict"), FileKind::kTermDict);
  PostingsWriter any_writer(post, nullptr);
  PostingsWriter field_writer(post, &pos);
  TermDictWriter dict(dict_file);

  // Keys sort by field byte first, so all kAny keys precede kTitle keys,
  // which precede kAbstract keys.
  std::vector<uint32_t> ids = inverter_.sorted_term_ids();
  DecodedPostings title, abstract, any;
  std::string key;
  for (Field field : {Field::kAny, Field::kTitle, Field::kAbstract}) {
    for (uint32_t id : ids) {
      const Inverter::Term& t = inverter_.term(id);
      TermInfo info;
      if (field == Field::kAny) {
        decode(t.fields[0], title);
        decode(t.fields[1], abstract);
        merge_any(title, abstract, any);
        info = any_writer.write(any.docs, any.freqs, {});
      } else {
        const Inverter::Postings& p = t.fields[field == Field::kTitle ? 0 : 1];
        if (p.doc_freq == 0) continue;
        decode(p, title);
        info = field_writer.write(title.docs, title.freqs, title.positions);
      }
      key = term_key(field, t.text);
      dict.add(key, info);
    }
  }
  dict.finish();
  post.finish();
  pos.finish();
  dict_file.finish();
  write_norms(segment_file(dir_, name_, "norms"), inverter_.field_lengths());
  return SegmentInfo{name_, inverter_.doc_count()};
}

SegmentInfo merge_segments(const std::string& dir, const std::vector<std::shared_ptr<const SegmentReader>>& inputs,
                           const std::string& name) {
  // Doc store and norms: concatenated in segment order.
  {
    FileWriter docs_file(segment_file(dir, name, "docs"), FileKind::kDocStore);
    DocStoreWriter docs(docs_file);
    std::vector<uint32_t> lengths;
    for (const auto& seg : inputs) {
      for (DocId d = 0; d < seg->doc_count(); ++d) {
        StoredDoc s = seg->doc_store().get(d);
        docs.add(s.title, s.url, s.abstract);
        lengths.push_back(seg->field_length(Field::kTitle, d));
        lengths.push_back(seg->field_length(Field::kAbstract, d));
      }
    }
    docs.finish();
    docs_file.finish();
    write_norms(segment_file(dir, name, "norms"), lengths);
  }

  FileWriter post(segment_file(dir, name, "post"), FileKind::kPostings);
  FileWriter pos(segment_file(dir, name, "pos"), FileKind::kPositions);
  FileWriter dict_file(segment_file(dir, name, "dict"), FileKind::kTermDict);
  PostingsWriter any_writer(post, nullptr);
  PostingsWriter field_writer(post, &pos);
  TermDictWriter dict(dict_file);

  std::vector<DocId> bases;
  DocId base = 0;
  std::vector<TermDictReader::Iterator> its;
  for (const auto& seg : inputs) {
    bases.push_back(base);
    base += seg->doc_count();
    its.push_back(seg->terms().begin());
  }
  DecodedPostings out;
  std::vector<uint32_t> doc_positions;
  std::string key;
  for (;;) {
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
    bool with_positions = !key.empty() && key[0] != static_cast<char>(Field::kAny);
    out.clear();
    for (size_t s = 0; s < its.size(); ++s) {
      if (!its[s].valid() || its[s].key() != key) continue;
      auto field = static_cast<Field>(key[0]);
      PostingsCursor c = inputs[s]->cursor(field, its[s].info());
      for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
        out.docs.push_back(bases[s] + d);
        out.freqs.push_back(c.freq());
        if (with_positions) {
          c.positions(doc_positions);
          out.positions.insert(out.positions.end(), doc_positions.begin(), doc_positions.end());
        }
      }
      its[s].next();
    }
    TermInfo info = with_positions ? field_writer.write(out.docs, out.freqs, out.positions)
                                   : any_writer.write(out.docs, out.freqs, {});
    dict.add(key, info);
  }
  dict.finish();
  post.finish();
  pos.finish();
  dict_file.finish();
  return SegmentInfo{name, base};
}

}  // namespace fts
