// Writes an index directory: add, update and delete documents, then commit.
//   fts::IndexWriter writer("wiki-index");           // appends to an existing index
//   fts::DocId id = writer.add({.title = "Cat", .url = "https://example.org/cat", .abstract = "The cat is ..."});
//   writer.update({.title = "Dog", .url = "u2", .abstract = "..."});  // replaces the docs with url u2
//   writer.delete_url("u3");
//   writer.delete_by_query("title:obsolete");
//   fts::add_dump(writer, "enwiki-abstract.xml.gz");  // fts/dump.h
//   writer.commit();
// Documents are analyzed and inverted in memory, a segment is flushed
// whenever the RAM budget is reached; a commit applies the deletes, merges
// segments and is published by atomically replacing the manifest, so a
// crash at any moment leaves the last completed commit intact.
//
// Commits are cumulative: each publishes everything committed before plus
// what was added and deleted since. A writer opened on an existing index
// appends to it (kAppend) unless told to replace it (kReplace: the first
// commit publishes only what this writer added). Doc ids are given in the
// order of add(), after the highest id ever given in the index; a deleted
// id is never given again, and merges keep ids. One writer at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "fts/document.h"
#include "fts/errors.h"
#include "fts/export.h"
#include "fts/stopwords.h"

namespace fts {

struct IndexWriterOptions {
  size_t ram_mb = 512;  // budget of the in-memory inverter (at least 16 is used)
  // At commit: merge this commit's new segments into one, and (appending)
  // let the merge policy merge similar-sized neighbours.
  bool merge = true;
  // For a new or replaced index; a writer appending to an index analyzes
  // with that index's stopwords.
  Stopwords stopwords = Stopwords::defaults();
  // Words (as the analyzer gives them: stemmed, lowercase) whose adjacent
  // pairs are indexed too, so that phrases of them read one short list.
  // Unset: the commonest English words (index/FORMAT.md); empty: none. For
  // a new or replaced index; appending keeps the index's own.
  std::optional<std::vector<std::string>> pair_words = std::nullopt;
  // Threads that build: 1, the thread calling add() does it all; 2, it
  // analyzes while another inverts; more, as many workers analyze and
  // invert chunks into segments of their own, which the commit merges. Any
  // count gives the same index.
  unsigned threads = 2;
  // Also flush a segment after this many docs (0: only the RAM budget);
  // tests use it to get many segments from a small corpus.
  uint32_t max_segment_docs = 0;
  enum class Mode { kAppend, kReplace } mode = Mode::kAppend;
  // Merge policy: this many adjacent segments of one size tier are merged
  // into one; a segment with more than max_deleted_percent of its docs
  // deleted is rewritten without them.
  size_t segments_per_merge = 10;
  unsigned max_deleted_percent = 20;
  // Near-duplicates (index/FORMAT.md): each doc's SimHash fingerprint, and
  // clusters of the docs whose fingerprints are at most dupe_distance bits
  // apart (0..15), for SearchOptions::collapse. An index keeps the distance
  // it was built with: appending writers use it, whatever they are given.
  bool near_dupes = true;
  unsigned dupe_distance = 4;
};

struct BuildStats {
  uint64_t docs = 0;                // live docs in the index after the commit
  uint64_t added = 0, deleted = 0;  // by this commit
  uint64_t terms = 0, segments = 0, index_bytes = 0;  // terms: distinct, summed over segments
};

class FTS_API IndexWriter {
 public:
  // Creates dir if needed and locks it (LockError, naming the holder's
  // process, when another writer in this process or another holds it).
  // Nothing is visible to readers before commit(). Throws IoError,
  // LockError, ArgumentError (bad options), IndexError (appending to a
  // damaged index).
  explicit IndexWriter(std::string dir, IndexWriterOptions options = {});
  ~IndexWriter();  // without commit(), nothing becomes visible
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;

  // Returns the doc's id. Thread-compatible: one thread calls the writer.
  // Throws IoError when a segment flush fails.
  DocId add(Document doc);
  // The id the next add() gives.
  DocId next_doc_id() const;
  uint64_t docs_added() const;

  // Deletes apply at commit to the docs given an id before the call,
  // committed or not; deleting an absent or deleted doc does nothing.
  void delete_doc(DocId doc);
  void delete_url(const std::string& url);  // every doc with that url
  // Every doc the query matches (parsed now: QuerySyntaxError).
  void delete_by_query(std::string_view query);
  // Replaces the docs with doc.url by doc, in one commit. Returns its id.
  DocId update(Document doc);
  // Merge down to at most max_segments segments at the next commit, deleted
  // docs purged.
  void force_merge(size_t max_segments);

  // Flushes, applies deletes, merges, fsyncs, swaps the manifest, and
  // removes files no longer referenced. Throws IoError or IndexError; after
  // a failure the index is as its last commit left it.
  BuildStats commit();

 private:
  friend struct IndexWriterAccess;
  struct FTS_LOCAL Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fts
