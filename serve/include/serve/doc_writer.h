// The one index writer of a --writable fts-serve. Every write goes through
// its mutex, so writes are serialized whatever thread brings them (the
// transport runs them on a thread of their own, apart from searches). A
// commit publishes its snapshot to the IndexHolder before it returns: a
// search that starts after a commit was acknowledged sees it, while
// searches already running finish on the snapshot they started with.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "fts/index_writer.h"
#include "serve/index_holder.h"

namespace fts::serve {

struct WriterStatus {
  uint64_t uncommitted_adds = 0, uncommitted_deletes = 0;  // since the last commit
  DocId next_doc_id = 0;
};

struct CommitResult {
  uint64_t generation = 0;  // of the snapshot searches now use
  BuildStats stats;
};

class DocWriter {
 public:
  // Locks the index directory (LockError naming the holder when another
  // writer has it) and brings the holder up to the latest commit.
  DocWriter(IndexHolder& index, IndexWriterOptions options);

  // Adds the docs in order; returns their ids. What was added before a
  // failure stays added (IoError: a segment could not be flushed).
  std::vector<DocId> add(std::vector<Document> docs);
  // Each doc replaces the docs with its url (IndexWriter::update); returns
  // the new ids.
  std::vector<DocId> update(std::vector<Document> docs);
  // False, and nothing done, when no doc has that id: never given, or
  // deleted by a commit already.
  bool delete_doc(DocId id);
  void delete_url(const std::string& url);
  void delete_by_query(std::string_view query);  // QuerySyntaxError
  // Throws what IndexWriter::commit throws (the index keeps its last
  // commit), or IndexError when the new commit cannot be opened for search.
  CommitResult commit();
  // Lock-free: /stats asks while a commit runs.
  WriterStatus status() const;

 private:
  IndexHolder& index_;
  std::mutex mu_;
  IndexWriter writer_;
  DocId committed_end_ = 0;  // ids below were given before the last commit
  std::atomic<DocId> next_doc_id_{0};
  std::atomic<uint64_t> adds_{0}, deletes_{0};
};

}  // namespace fts::serve
