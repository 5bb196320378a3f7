#include "index/reader/index_reader.h"

#include "index/format/manifest.h"

namespace fts {

namespace {

std::shared_ptr<const IndexReader> open_segments(const std::string& dir, const Manifest& m) {
  std::vector<IndexReader::Segment> segments;
  DocId base = 0;
  for (const auto& info : m.segments) {
    auto reader = SegmentReader::open(dir, info.name);
    if (reader->doc_count() != info.doc_count) {
      throw IndexError(dir + "/" + info.name + ".norms", "holds " + std::to_string(reader->doc_count()) +
                       " docs, the manifest says " + std::to_string(info.doc_count));
    }
    if (uint64_t(base) + info.doc_count >= kNoMoreDocs) throw IndexError(dir, "too many documents");
    segments.push_back(IndexReader::Segment{std::move(reader), base});
    base += info.doc_count;
  }
  return std::make_shared<IndexReader>(dir, m.generation, std::move(segments), Stopwords(m.stopwords));
}

}  // namespace

std::shared_ptr<const IndexReader> IndexReader::open(const std::string& dir) {
  // A commit may land between reading the manifest and mapping its segments,
  // and then removes the files the old manifest named. Mapped files stay
  // valid, but one not yet mapped is gone: read the new manifest and retry.
  for (int attempt = 0;; ++attempt) {
    Manifest m = read_manifest(dir);
    try {
      return open_segments(dir, m);
    } catch (const IndexError&) {
      if (attempt >= 20 || read_manifest(dir).generation == m.generation) throw;
    }
  }
}

IndexReader::IndexReader(std::string dir, uint64_t generation, std::vector<Segment> segments, Stopwords stopwords)
    : dir_(std::move(dir)), generation_(generation), segments_(std::move(segments)), stopwords_(std::move(stopwords)) {
  for (const auto& s : segments_) {
    doc_count_ += s.reader->doc_count();
    for (int f = 0; f < 3; ++f) total_length_[f] += s.reader->total_field_length(static_cast<Field>(f));
  }
}

uint64_t IndexReader::doc_freq(Field field, std::string_view term) const {
  uint64_t df = 0;
  for (const auto& s : segments_) {
    if (auto info = s.reader->lookup(field, term)) df += info->doc_freq;
  }
  return df;
}

double IndexReader::average_field_length(Field field) const {
  return doc_count_ ? double(total_length_[static_cast<int>(field)]) / doc_count_ : 0.0;
}

StoredDoc IndexReader::stored(DocId doc) const {
  for (const auto& s : segments_) {
    if (doc >= s.base && doc - s.base < s.reader->doc_count()) return s.reader->doc_store().get(doc - s.base);
  }
  // Ids come from postings: one past the index means they are damaged.
  throw IndexError(dir_, "doc id " + std::to_string(doc) + " is not in the index (damaged postings)");
}

void IndexReader::check() const {
  read_manifest(dir_);
  for (const auto& s : segments_) s.reader->check();
}

}  // namespace fts
