// The index as a whole: what IndexWriter writes, IndexReader reads back
// exactly; merged and unmerged builds hold the same postings; a commit
// replaces an index atomically; damage is reported, never crashes.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <tuple>

#include "analyzer/analyzer.h"
#include "index/reader/index_reader.h"
#include "index/writer/index_writer.h"
#include "index/writer/inverter.h"
#include "index/writer/segment_writer.h"
#include "index/format/file_format.h"
#include "index/format/manifest.h"
#include "index/format/norms.h"
#include "support/test_support.h"

namespace fts {
namespace {

std::vector<Document> generate_docs(size_t n, uint32_t seed) {
  static const char* kWords[] = {"cat",    "dog",    "wild",  "small",  "search", "engine", "running", "runs",
                                 "index",  "query",  "fast",  "slow",   "zürich", "straße", "東京",     "ha",
                                 "river",  "bank",   "money", "stream", "the",    "of",     "and",     "1984"};
  std::mt19937 rng(seed);
  auto word = [&] {
    // Zipf-ish: low indexes far more often.
    size_t i = std::min<size_t>(std::size(kWords) - 1, static_cast<size_t>(std::pow(rng() % 1000 / 1000.0, 2.5) * std::size(kWords)));
    return std::string(kWords[i]);
  };
  std::vector<Document> docs(n);
  for (size_t d = 0; d < n; ++d) {
    for (size_t k = rng() % 4; k > 0; --k) docs[d].title += word() + " ";
    for (size_t k = rng() % 40; k > 0; --k) docs[d].abstract += word() + (rng() % 7 ? " " : ". ");
    docs[d].url = "https://example.org/" + std::to_string(d);
  }
  return docs;
}

void build(const std::string& dir, const std::vector<Document>& docs, IndexWriterOptions options = {}) {
  IndexWriter writer(dir, options);
  for (const auto& d : docs) writer.add(d);
  writer.commit();
}

// Per doc with a term: {doc, freq, positions...}, global doc ids.
using Rows = std::vector<std::vector<uint32_t>>;
// key -> its rows over all segments.
using Dump = std::map<std::string, Rows>;

// Appends the rows of one segment's list of a term in field.
void append_rows(const IndexReader::Segment& seg, Field field, const TermInfo& info, Rows& rows) {
  std::vector<uint32_t> positions;
  PostingsCursor c = seg.reader->cursor(field, info);
  for (DocId d = c.next(); d != kNoMoreDocs; d = c.next()) {
    std::vector<uint32_t> row{seg.base + d, c.freq()};
    if (field != Field::kAny) {
      c.positions(positions);
      row.insert(row.end(), positions.begin(), positions.end());
    }
    rows.push_back(row);
  }
}

Dump dump_index(const IndexReader& index) {
  Dump out;
  for (const auto& seg : index.segments()) {
    for (auto it = seg.reader->terms().begin(); it.valid(); it.next()) {
      append_rows(seg, static_cast<Field>(it.key()[0]), it.info(), out[std::string(it.key())]);
    }
  }
  return out;
}

// The postings the contract implies, computed straight from the analyzer;
// with pair words, also a kAny list per pair of them found adjacent in a
// field, its freq the pair's occurrences (index/format/word_pairs.h).
Dump expected_postings(const std::vector<Document>& docs, const std::set<std::string>& pair_words = {}) {
  Analyzer analyzer;
  std::map<std::string, std::map<DocId, std::vector<uint32_t>>> fields[3];
  for (DocId d = 0; d < docs.size(); ++d) {
    auto title = analyzer.analyze(docs[d].title);
    auto abstract = analyzer.analyze(docs[d].abstract);
    for (uint32_t p = 0; p < title.size(); ++p) fields[1][title[p]][d].push_back(p);
    for (uint32_t p = 0; p < abstract.size(); ++p) fields[2][abstract[p]][d].push_back(p);
    for (const auto& t : title) fields[0][t][d].push_back(0);
    for (const auto& t : abstract) fields[0][t][d].push_back(0);
    for (const auto* tokens : {&title, &abstract}) {
      for (size_t p = 0; p + 1 < tokens->size(); ++p) {
        const std::string &a = (*tokens)[p], &b = (*tokens)[p + 1];
        if (pair_words.contains(a) && pair_words.contains(b)) fields[0][a + " " + b][d].push_back(0);
      }
    }
  }
  Dump out;
  for (int f = 0; f < 3; ++f) {
    for (const auto& [term, docs_of] : fields[f]) {
      auto& list = out[term_key(static_cast<Field>(f), term)];
      for (const auto& [d, pos] : docs_of) {
        std::vector<uint32_t> row{d, static_cast<uint32_t>(pos.size())};
        if (f != 0) row.insert(row.end(), pos.begin(), pos.end());
        list.push_back(row);
      }
    }
  }
  return out;
}

TEST(IndexWriter, PostingsMatchTheAnalyzedDocuments) {
  test::TempDir dir;
  auto docs = generate_docs(700, 1);
  build(dir.str(), docs);
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->doc_count(), docs.size());
  EXPECT_EQ(index->segments().size(), 1u);
  EXPECT_EQ(dump_index(*index), expected_postings(docs));
  for (DocId d : {0u, 1u, 350u, 699u}) {
    StoredDoc s = index->stored(d);
    EXPECT_EQ(s.title, docs[d].title);
    EXPECT_EQ(s.url, docs[d].url);
    EXPECT_EQ(s.abstract, docs[d].abstract);
  }
  Analyzer analyzer;
  const auto& seg = *index->segments()[0].reader;
  for (DocId d = 0; d < docs.size(); ++d) {
    ASSERT_EQ(seg.field_length(Field::kTitle, d), analyzer.analyze(docs[d].title).size());
    ASSERT_EQ(seg.field_length(Field::kAbstract, d), analyzer.analyze(docs[d].abstract).size());
  }
  EXPECT_NO_THROW(index->check());
}

TEST(IndexWriter, ManySegmentsAndTheirMergeHoldTheSamePostings) {
  auto docs = generate_docs(1000, 2);
  test::TempDir single, many, merged;
  build(single.str(), docs, {.threads = 1});
  build(many.str(), docs, {.merge = false, .max_segment_docs = 97});
  build(merged.str(), docs, {.max_segment_docs = 97});
  auto a = IndexReader::open(single.str());
  auto b = IndexReader::open(many.str());
  auto c = IndexReader::open(merged.str());
  EXPECT_EQ(b->segments().size(), 11u);
  EXPECT_EQ(c->segments().size(), 1u);
  Dump expected = expected_postings(docs);
  EXPECT_EQ(dump_index(*a), expected);
  EXPECT_EQ(dump_index(*b), expected);
  EXPECT_EQ(dump_index(*c), expected);
  EXPECT_EQ(b->stored(500).abstract, docs[500].abstract);
  EXPECT_EQ(c->stored(999).title, docs[999].title);
  EXPECT_DOUBLE_EQ(a->average_field_length(Field::kAbstract), c->average_field_length(Field::kAbstract));
  EXPECT_EQ(a->doc_freq(Field::kAny, "cat"), b->doc_freq(Field::kAny, "cat"));
  EXPECT_NO_THROW(b->check());
  EXPECT_NO_THROW(c->check());
}

// The bytes of each file of the index's only segment, by extension (the
// segment's name counts the flushes, so it differs).
std::map<std::string, std::string> segment_bytes(const std::string& dir) {
  auto index = IndexReader::open(dir);
  EXPECT_EQ(index->segments().size(), 1u);
  std::map<std::string, std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (!name.starts_with("seg-")) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    out[entry.path().extension().string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

// Every stored doc of the index, in id order.
std::vector<StoredDoc> stored_docs(const std::string& dir) {
  auto index = IndexReader::open(dir);
  std::vector<StoredDoc> out;
  for (DocId d = 0; d < index->doc_count(); ++d) out.push_back(index->stored(d));
  return out;
}

// The one-segment index in dir holds the bytes of reference's files and
// its stored docs. A merge copies the doc store's compressed blocks, so
// where the flushed segments ended shows in the blocks of .docs: only the
// docs in them must be the same.
void expect_same_index(const std::string& dir, const std::string& reference) {
  auto got = segment_bytes(dir), want = segment_bytes(reference);
  EXPECT_EQ(got.size(), 9u);  // with the fingerprints and cluster ids, which must match too
  got.erase(".docs");
  want.erase(".docs");
  EXPECT_EQ(got, want);
  const auto a = stored_docs(dir), b = stored_docs(reference);
  ASSERT_EQ(a.size(), b.size());
  for (size_t d = 0; d < a.size(); ++d) {
    EXPECT_EQ(std::tie(a[d].title, a[d].url, a[d].abstract), std::tie(b[d].title, b[d].url, b[d].abstract)) << d;
  }
}

TEST(IndexWriter, EveryThreadCountBuildsTheSameIndex) {
  auto docs = generate_docs(3000, 7);
  test::TempDir reference;
  build(reference.str(), docs, {.threads = 1});
  for (unsigned threads : {1u, 2u, 3u, 5u}) {
    // Chunks of 97 docs dealt to the workers: they finish out of order.
    test::TempDir merged, unmerged;
    build(merged.str(), docs, {.threads = threads, .max_segment_docs = 97});
    SCOPED_TRACE(std::to_string(threads) + " threads");
    expect_same_index(merged.str(), reference.str());
    build(unmerged.str(), docs, {.merge = false, .threads = threads, .max_segment_docs = 97});
    auto index = IndexReader::open(unmerged.str());
    ASSERT_EQ(index->segments().size(), 31u) << threads << " threads";
    DocId next = 0;
    for (const auto& seg : index->segments()) {
      EXPECT_EQ(seg.base, next) << "segments in id order, each its ids consecutive";
      next += seg.reader->doc_count();
    }
    EXPECT_EQ(dump_index(*index), expected_postings(docs)) << threads << " threads";
    EXPECT_EQ(index->stored(2999).abstract, docs[2999].abstract);
    EXPECT_NO_THROW(index->check());
  }
}

TEST(IndexWriter, WordPairsHoldTheAdjacentPairsOfPairWords) {
  auto docs = generate_docs(1500, 4);
  const std::vector<std::string> words = {"cat", "dog", "wild", "ha", "run"};  // "runs", "running" -> "run"
  const Dump expected = expected_postings(docs, {words.begin(), words.end()});
  size_t pair_keys = 0;
  for (const auto& [key, rows] : expected) pair_keys += key.find(' ') != std::string::npos;
  ASSERT_GT(pair_keys, 15u);  // "ha ha" too
  test::TempDir single, many, merged, threads;
  build(single.str(), docs, {.pair_words = words, .threads = 1});
  build(many.str(), docs, {.merge = false, .pair_words = words, .max_segment_docs = 97});
  build(merged.str(), docs, {.pair_words = words, .max_segment_docs = 97});
  build(threads.str(), docs, {.pair_words = words, .threads = 3, .max_segment_docs = 97});
  for (const auto* dir : {&single, &many, &merged, &threads}) {
    auto index = IndexReader::open(dir->str());
    EXPECT_EQ(index->pair_words().list(), words);
    EXPECT_EQ(dump_index(*index), expected) << dir->str();
    EXPECT_NO_THROW(index->check());
  }
  expect_same_index(threads.str(), single.str());
}

// check() recomputes the pairs from the positions: a manifest that names
// other pair words than the segments were written with fails it.
TEST(IndexWriter, CheckFindsPairListsThatDisagreeWithThePairWords) {
  auto docs = generate_docs(400, 6);
  test::TempDir dir;
  build(dir.str(), docs, {.pair_words = std::vector<std::string>{"cat", "dog"}});
  EXPECT_NO_THROW(IndexReader::open(dir.str())->check());
  const Manifest built = read_manifest(dir.str());
  for (const std::vector<std::string>& words : {std::vector<std::string>{"cat"},                 // "cat dog" unexpected
                                                std::vector<std::string>{"cat", "dog", "wild"}}) {  // "wild cat" missing
    Manifest m = built;
    m.pair_words = words;
    write_manifest(dir.str(), m);
    EXPECT_THROW(IndexReader::open(dir.str())->check(), IndexError) << words.size() << " words";
  }
  write_manifest(dir.str(), built);
  EXPECT_NO_THROW(IndexReader::open(dir.str())->check());
}

TEST(IndexWriter, AnIndexKeepsThePairWordsItWasBuiltWith) {
  auto docs = generate_docs(300, 5);
  test::TempDir dir;
  build(dir.str(), {docs.begin(), docs.begin() + 150}, {.pair_words = std::vector<std::string>{"cat", "dog"}});
  // Appending pairs the index's words, whatever the writer is given.
  build(dir.str(), {docs.begin() + 150, docs.end()}, {.pair_words = std::vector<std::string>{"wild"}});
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->pair_words().list(), (std::vector<std::string>{"cat", "dog"}));
  EXPECT_EQ(dump_index(*index), expected_postings(docs, {"cat", "dog"}));
  // Replacing takes the new words; by default, the commonest English words.
  build(dir.str(), docs, {.mode = IndexWriterOptions::Mode::kReplace});
  EXPECT_EQ(IndexReader::open(dir.str())->pair_words().list(), default_pair_words());
  build(dir.str(), docs, {.pair_words = std::vector<std::string>{}, .mode = IndexWriterOptions::Mode::kReplace});
  EXPECT_TRUE(IndexReader::open(dir.str())->pair_words().list().empty());
  EXPECT_THROW(IndexWriter(dir.str(), {.pair_words = std::vector<std::string>{"wild cat"},
                                       .mode = IndexWriterOptions::Mode::kReplace}),
               ArgumentError);
}

// The bytes of every file of segment name in dir, by extension.
std::map<std::string, std::string> files_of(const std::string& dir, const std::string& name) {
  std::map<std::string, std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().stem().string() != name) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    out[entry.path().extension().string()] = std::string(std::istreambuf_iterator<char>(in), {});
  }
  return out;
}

TEST(MergeSegments, TwoThreadsWriteTheFilesOfOne) {
  auto docs = generate_docs(2000, 11);
  test::TempDir dir;
  build(dir.str(), docs, {.merge = false, .max_segment_docs = 150});
  for (bool with_deletes : {false, true}) {
    if (with_deletes) {
      IndexWriter writer(dir.str(), {.merge = false});
      for (DocId d = 3; d < docs.size(); d += 7) writer.delete_doc(d);
      writer.commit();
    }
    auto index = IndexReader::open(dir.str());
    ASSERT_EQ(index->segments().size(), 14u);
    // Two threads do split the terms here: the comparison below tests the split.
    ASSERT_FALSE(merge_split_term(index->segments()).empty());
    const std::string one = with_deletes ? "merged-1d" : "merged-1", two = with_deletes ? "merged-2d" : "merged-2";
    const SegmentInfo a = merge_segments(dir.str(), index->segments(), one, 1);
    const SegmentInfo b = merge_segments(dir.str(), index->segments(), two, 2);
    EXPECT_EQ(a.doc_count, index->live_count());
    EXPECT_EQ(b.doc_count, a.doc_count);
    const auto files = files_of(dir.str(), one);
    EXPECT_GE(files.size(), 7u);
    EXPECT_EQ(files_of(dir.str(), two), files) << (with_deletes ? "with deletes" : "without deletes");
    // And the files read back whole: checksums and invariants.
    auto merged = SegmentReader::open(dir.str(), one, true, true);
    EXPECT_NO_THROW(merged->check());
  }
}

// Flips the byte in the middle of segment 1's file of extension ext (of
// three), then expects check() and a merge to refuse the index, the merge
// naming the file: a merge must not pass damaged bytes on under a fresh
// checksum.
void expect_merge_refuses_damaged(const std::string& ext, uint32_t seed) {
  auto docs = generate_docs(600, seed);
  test::TempDir dir;
  build(dir.str(), docs, {.merge = false, .max_segment_docs = 200});
  const std::string path = IndexReader::open(dir.str())->segments()[1].reader->name() + ext;
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(0, std::ios::end);
    const std::streamoff middle = f.tellg() / 2;
    f.seekg(middle);
    const char c = static_cast<char>(f.get());
    f.seekp(middle);
    f.put(static_cast<char>(c ^ 0x5a));
  }
  auto index = IndexReader::open(dir.str());  // opening reads neither past its header
  EXPECT_THROW(index->segments()[1].reader->check(), IndexError);
  try {
    merge_segments(dir.str(), index->segments(), "merged", 1);
    ADD_FAILURE() << "merged a damaged " << ext;
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find(ext), std::string::npos) << e.what();
  }
}

// The doc store's blocks are copied without being decompressed.
TEST(MergeSegments, ADamagedDocStoreIsNotCopied) { expect_merge_refuses_damaged(".docs", 12); }

// Opening does not read the norms past their header; a merge verifies
// them before it writes their lengths under a fresh checksum.
TEST(MergeSegments, DamagedNormsAreNotMerged) { expect_merge_refuses_damaged(".norms", 13); }

// A term number names one term only within its numbering: the same numbers
// under another numbering, docs without numbers and a term without one go
// to the right terms.
TEST(Inverter, TermNumbersHoldOnlyWithinTheirNumbering) {
  std::vector<std::string> pool = {"cat", "dog", "eel"};
  auto doc = [&](uint64_t numbering, std::vector<AnalyzedTerm> abstract) {
    AnalyzedDoc d;
    d.term_numbering = numbering;
    d.abstract_terms = std::move(abstract);
    return d;
  };
  Inverter inverter;
  inverter.add(doc(7, {{pool[0], 0}, {pool[1], 1}}));                // cat dog
  inverter.add(doc(8, {{pool[1], 0}, {pool[0], 1}, {pool[2], 2}}));  // dog cat eel, renumbered
  inverter.add(doc(0, {{pool[2], 0}}));                              // eel, no numbers
  inverter.add(doc(8, {{pool[1], 0}, {pool[1], 0}}));                // dog dog
  inverter.add(doc(8, {{pool[0], Analyzer::kNoNumber}}));            // cat, too long to number
  std::map<std::string, std::pair<uint32_t, uint64_t>> found;        // term -> (doc freq, total freq)
  for (uint32_t id = 0; id < inverter.term_count(); ++id) {
    const Inverter::Term& t = inverter.term(id);
    found[std::string(t.text)] = {t.fields[1].doc_freq, t.fields[1].total_freq};
  }
  using Found = std::map<std::string, std::pair<uint32_t, uint64_t>>;
  EXPECT_EQ(found, (Found{{"cat", {3, 3}}, {"dog", {3, 4}}, {"eel", {2, 2}}}));
}

// The rows of key in index.
Rows postings_of(const IndexReader& index, const std::string& key) {
  Rows rows;
  const auto field = static_cast<Field>(key[0]);
  for (const auto& seg : index.segments()) {
    if (std::optional<TermInfo> info = seg.reader->lookup(field, std::string_view(key).substr(1))) {
      append_rows(seg, field, *info, rows);
    }
  }
  return rows;
}

// Inverters key their term tables by the analyzer's term numbers, and past
// a million terms the numbering starts over, here within a doc too. Titles
// of 2,000 words found nowhere else (1.2 million terms) around abstracts of
// common words: the postings against brute force.
TEST(IndexWriter, PostingsStayExactWhenTheTermNumberingStartsOver) {
  std::vector<Document> docs = generate_docs(600, 9);
  std::vector<Document> abstracts_only = docs;
  for (size_t d = 0; d < docs.size(); ++d) {
    abstracts_only[d].title.clear();
    docs[d].title.clear();
    for (size_t k = 0; k < 2000; ++k) docs[d].title += "u" + std::to_string(d * 2000 + k) + "x ";
  }
  // The abstracts' words occur in no title: their kAny lists are their abstract lists.
  const Dump expected = expected_postings(abstracts_only);
  // Two threads: the adding thread's analyzer numbers every doc.
  test::TempDir dir;
  build(dir.str(), docs, {.threads = 2});
  auto index = IndexReader::open(dir.str());
  for (const auto& [key, rows] : expected) {
    if (static_cast<Field>(key[0]) == Field::kTitle) continue;
    ASSERT_EQ(postings_of(*index, key), rows) << key;
  }
  for (uint32_t d = 0; d < docs.size(); d += 7) {
    for (uint32_t k = d % 13; k < 2000; k += 131) {
      const std::string term = "u" + std::to_string(d * 2000 + k) + "x";
      ASSERT_EQ(postings_of(*index, term_key(Field::kTitle, term)), (Rows{{d, 1, k}})) << term;
    }
  }
}

TEST(IndexWriter, ARamBudgetSplitAmongThreadsGivesTheSameIndex) {
  // 16 MB among 4 workers: chunks of 512 KB of text, several per worker.
  auto docs = generate_docs(12000, 8);
  test::TempDir one, four;
  build(one.str(), docs, {.ram_mb = 16, .threads = 1});
  build(four.str(), docs, {.ram_mb = 16, .threads = 4});
  expect_same_index(four.str(), one.str());
}

TEST(IndexWriter, AFailedCommitLeavesNoFilesBehind) {
  test::TempDir dir;
  build(dir.str(), generate_docs(50, 9));
  {
    IndexWriter writer(dir.str(), {.threads = 3, .max_segment_docs = 10});
    for (auto& d : generate_docs(100, 10)) writer.add(d);
    // A file in the way of the next generation's merged segment.
    std::filesystem::create_directory(dir.path() / "seg-2-10.docs");
    EXPECT_THROW(writer.commit(), IoError);
  }
  std::filesystem::remove(dir.path() / "seg-2-10.docs");
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    files += e.path().filename().string().starts_with("seg-2-");
  }
  EXPECT_EQ(files, 0u);
  EXPECT_EQ(IndexReader::open(dir.str())->doc_count(), 50u);
}

TEST(IndexWriter, EmptyIndexOpens) {
  test::TempDir dir;
  build(dir.str(), {});
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->doc_count(), 0u);
  EXPECT_EQ(index->doc_freq(Field::kAny, "cat"), 0u);
}

// Pruning bounds every score of a segment by its shortest field lengths,
// which the norms store (format 4): they equal the shortest of the docs'
// lengths. Opening reads only the norms' header: stored lengths that break
// its invariants fail there, others that disagree with the norms fail
// check(), even under a valid checksum (a longer one would drop hits from
// the top k).
TEST(SegmentReader, ShortestLengthsAreStoredAndChecked) {
  auto docs = generate_docs(300, 21);
  test::TempDir dir;
  build(dir.str(), docs, {.merge = false, .max_segment_docs = 100});
  auto index = IndexReader::open(dir.str());
  ASSERT_EQ(index->segments().size(), 3u);
  for (const auto& seg : index->segments()) {
    const SegmentReader& r = *seg.reader;
    for (Field f : {Field::kAny, Field::kTitle, Field::kAbstract}) {
      uint32_t shortest = UINT32_MAX;
      for (DocId d = 0; d < r.doc_count(); ++d) shortest = std::min(shortest, r.field_length(f, d));
      EXPECT_EQ(r.shortest_field_length(f), shortest) << r.name() << " field " << int(f);
    }
  }

  // Every doc: a title of two terms, an abstract of three or more.
  std::vector<Document> even(200);
  for (size_t i = 0; i < even.size(); ++i) {
    even[i] = {.title = "cat dog", .url = "u" + std::to_string(i), .abstract = "wild small river" + std::string(i % 5, '!') + (i % 2 ? " bank" : "")};
  }
  test::TempDir dir2;
  build(dir2.str(), even);
  const std::string name = IndexReader::open(dir2.str())->segments()[0].reader->name();
  const std::string segment = std::filesystem::path(name).filename().string();
  ASSERT_EQ(SegmentReader::open(dir2.str(), segment)->shortest_field_length(Field::kTitle), 2u);
  // Rewrites the norms with title's stored shortest length set to title,
  // under a valid checksum.
  auto store_title = [&](uint32_t title) {
    std::string payload;
    {
      MappedFile norms(name + ".norms", FileKind::kNorms);
      payload.assign(reinterpret_cast<const char*>(norms.payload().data()), norms.payload().size());
    }
    std::memcpy(payload.data() + 4 + 3 * 8 + 4, &title, 4);  // after docs, totals and kAny's shortest
    FileWriter out(name + ".norms", FileKind::kNorms);
    out.write(payload.data(), payload.size());
    out.finish();
  };
  store_title(1000);  // beyond the average title length
  try {
    SegmentReader::open(dir2.str(), segment);
    ADD_FAILURE() << "opened a norms header whose shortest title length exceeds the average";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("norms header inconsistent"), std::string::npos) << e.what();
  }
  store_title(1);  // consistent with the header, not with the norms
  auto damaged = SegmentReader::open(dir2.str(), segment);
  EXPECT_EQ(damaged->shortest_field_length(Field::kTitle), 1u);
  try {
    damaged->check();
    ADD_FAILURE() << "check() passed stored shortest lengths that disagree with the norms";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("shortest lengths disagree"), std::string::npos) << e.what();
  }
}

// Unfielded scoring reads each doc's kAny length from a byte column
// (format 5); 255 sends it to the table of long docs (format 7). Around
// and past that edge the lengths stay exact, and check() finds a byte or a
// table entry that disagrees with them even under a valid checksum; a
// damaged table gives wrong lengths, never a read outside it.
TEST(SegmentReader, AnyLengthsAreExactPastTheByteColumn) {
  const uint32_t abstract_lengths[] = {0, 1, 252, 253, 254, 255, 256, 300, 70000};
  std::vector<Document> docs;
  for (uint32_t n : abstract_lengths) {
    std::string abstract;
    for (uint32_t i = 0; i < n; ++i) abstract += "w" + std::to_string(i % 97) + " ";
    docs.push_back({.title = "big cat", .url = "u" + std::to_string(n), .abstract = abstract});
  }
  test::TempDir dir;
  build(dir.str(), docs);
  auto index = IndexReader::open(dir.str());
  const SegmentReader& r = *index->segments()[0].reader;
  for (DocId d = 0; d < r.doc_count(); ++d) {
    const uint32_t abstract = std::min<uint32_t>(abstract_lengths[d], 65535);
    EXPECT_EQ(r.field_length(Field::kAbstract, d), abstract) << d;
    EXPECT_EQ(r.field_length(Field::kAny, d), 2 + abstract) << d;
  }
  EXPECT_NO_THROW(r.check());

  const std::string name = r.name();
  const std::string segment = std::filesystem::path(name).filename().string();
  index.reset();
  std::string payload;
  {
    MappedFile norms(name + ".norms", FileKind::kNorms);
    payload.assign(reinterpret_cast<const char*>(norms.payload().data()), norms.payload().size());
  }
  // Long: kAny lengths 255 (253 + the title's 2) and up, six docs from doc 3.
  const size_t table = kNormsHeaderBytes + docs.size() * 5;
  ASSERT_EQ(payload.size(), table + long_any_table_bytes(6, docs.size()));
  {
    // Norms of format 5 and 6 (no table): long docs read the pairs.
    const MappedFile post(name + ".post", FileKind::kPostings), pos(name + ".pos", FileKind::kPositions),
        dict(name + ".dict", FileKind::kTermDict), stored(name + ".docs", FileKind::kDocStore);
    const std::string old_norms = payload.substr(0, table);
    SegmentData data;
    data.postings = post.payload();
    data.positions = pos.payload();
    data.term_dict = dict.payload();
    data.doc_store = stored.payload();
    data.norms = {reinterpret_cast<const uint8_t*>(old_norms.data()), old_norms.size()};
    data.name = name;
    data.norms_version = 6;
    const SegmentReader old_format(data);
    for (DocId d = 0; d < old_format.doc_count(); ++d) {
      EXPECT_EQ(old_format.field_length(Field::kAny, d), 2 + std::min<uint32_t>(abstract_lengths[d], 65535)) << d;
    }
    EXPECT_NO_THROW(old_format.check());
  }
  auto write_norms = [&](const std::string& bytes) {
    FileWriter out(name + ".norms", FileKind::kNorms);
    out.write(bytes.data(), bytes.size());
    out.finish();
  };
  auto expect_check_finds = [&](const std::string& what) {
    try {
      SegmentReader::open(dir.str(), segment)->check();
      ADD_FAILURE() << "check() passed damaged norms, expected: " << what;
    } catch (const IndexError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };

  std::string damaged = payload;
  damaged[kNormsHeaderBytes + docs.size() * 4 + 1] = 7;  // doc 1's column byte: 3 before
  write_norms(damaged);
  EXPECT_EQ(SegmentReader::open(dir.str(), segment)->field_length(Field::kAny, 1), 7u);  // a wrong score, not a crash
  expect_check_finds("doc 1's length byte disagrees");

  damaged = payload;
  const size_t first_entry = table + 4 + (docs.size() / 256 + 2) * 4;
  damaged[first_entry] = 0;  // doc 3's length 255 becomes 0
  write_norms(damaged);
  EXPECT_EQ(SegmentReader::open(dir.str(), segment)->field_length(Field::kAny, 3), 0u);
  EXPECT_EQ(SegmentReader::open(dir.str(), segment)->field_length(Field::kAny, 4), 256u);
  expect_check_finds("the long docs' lengths disagree");

  damaged = payload;
  for (int i = 0; i < 4; ++i) damaged[table + 4 + i] = static_cast<char>(0xff);  // block 0 starts past the table
  write_norms(damaged);
  EXPECT_EQ(SegmentReader::open(dir.str(), segment)->field_length(Field::kAny, 3), 0u);
  expect_check_finds("the long docs' lengths disagree");

  damaged = payload;
  damaged[table] = 100;  // more long docs than the table holds
  write_norms(damaged);
  try {
    SegmentReader::open(dir.str(), segment);
    ADD_FAILURE() << "opened norms whose long docs' table is shorter than its count";
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("norms hold"), std::string::npos) << e.what();
  }
}

TEST(IndexWriter, CommitReplacesThePreviousIndexAndRemovesItsFiles) {
  test::TempDir dir;
  build(dir.str(), generate_docs(50, 3));
  auto old_reader = IndexReader::open(dir.str());
  build(dir.str(), generate_docs(80, 4), {.mode = IndexWriterOptions::Mode::kReplace});
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->doc_count(), 80u);
  EXPECT_GT(index->generation(), old_reader->generation());
  // The old reader keeps working on its mapped (now unlinked) files.
  EXPECT_EQ(old_reader->doc_count(), 50u);
  EXPECT_NO_THROW(old_reader->check());
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path())) {
    files += e.path().filename().string().starts_with("seg-");
  }
  EXPECT_EQ(files, 9u);  // one segment's nine files
}

TEST(IndexWriter, UncommittedWriterLeavesThePreviousIndexIntact) {
  test::TempDir dir;
  build(dir.str(), generate_docs(60, 5));
  {
    IndexWriter writer(dir.str(), {.max_segment_docs = 10});
    for (auto& d : generate_docs(100, 6)) writer.add(d);
  }  // destroyed without commit
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->doc_count(), 60u);
  EXPECT_NO_THROW(index->check());
}

TEST(IndexWriter, SecondWriterOnOneDirectoryIsRefused) {
  test::TempDir dir;
  IndexWriter first(dir.str());
  EXPECT_THROW(IndexWriter(dir.str()), LockError);
}

TEST(IndexWriter, StopwordsAreRecordedInTheIndex) {
  test::TempDir dir;
  build(dir.str(), generate_docs(10, 7), {.stopwords = Stopwords::none()});
  auto index = IndexReader::open(dir.str());
  EXPECT_TRUE(index->stopwords().words().empty());
  EXPECT_GT(index->doc_freq(Field::kAny, "the"), 0u);
}

TEST(IndexReader, MissingDirectoryOrManifestIsAClearError) {
  test::TempDir dir;
  try {
    IndexReader::open(dir.str("nope"));
    FAIL();
  } catch (const IndexError& e) {
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos);
  }
  EXPECT_THROW(IndexReader::open(dir.str()), IndexError);
}

// Every file kind, truncated or with a flipped byte: open or check reports
// IndexError; nothing crashes (the ASan build runs this too).
TEST(IndexReader, DamagedFilesAreReportedNeverCrash) {
  test::TempDir pristine;
  auto docs = generate_docs(400, 8);
  build(pristine.str(), docs);
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(pristine.path())) {
    std::string name = e.path().filename().string();
    if (name != "LOCK") files.push_back(name);
  }
  ASSERT_EQ(files.size(), 10u);  // MANIFEST and one segment's nine files
  std::mt19937 rng(9);
  for (const auto& name : files) {
    std::string original = test::read_file(pristine.str(name));
    for (int trial = 0; trial < 12; ++trial) {
      test::TempDir copy;
      for (const auto& f : files) std::filesystem::copy_file(pristine.str(f), copy.str(f));
      std::string damaged = original;
      if (trial % 2 == 0) {
        damaged.resize(rng() % damaged.size());
      } else {
        damaged[rng() % damaged.size()] ^= static_cast<char>(1 + rng() % 255);
      }
      test::write_file(copy.str(name), damaged);
      bool reported = false;
      try {
        auto index = IndexReader::open(copy.str());
        index->check();
      } catch (const IndexError& e) {
        reported = true;
        EXPECT_NE(std::string(e.what()).find(name.substr(0, name.find('.'))), std::string::npos) << e.what();
      }
      EXPECT_TRUE(reported) << name << " trial " << trial;
    }
  }
}

}  // namespace
}  // namespace fts

namespace fts {
namespace {

TEST(IndexWriter, RebuildsInPlaceOverADamagedManifest) {
  test::TempDir dir;
  build(dir.str(), generate_docs(40, 10));
  test::write_file(dir.str("MANIFEST"), "garbage");
  EXPECT_THROW(IndexReader::open(dir.str()), IndexError);
  build(dir.str(), generate_docs(30, 11), {.mode = IndexWriterOptions::Mode::kReplace});
  auto index = IndexReader::open(dir.str());
  EXPECT_EQ(index->doc_count(), 30u);
  EXPECT_NO_THROW(index->check());
}

}  // namespace
}  // namespace fts
