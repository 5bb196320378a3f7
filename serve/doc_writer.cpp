#include "serve/doc_writer.h"

#include <utility>

namespace fts::serve {

namespace {

bool is_live(const Index& index, DocId id) {
  try {
    (void)index.document(id);
    return true;
  } catch (const ArgumentError&) {
    return false;
  }
}

}  // namespace

DocWriter::DocWriter(IndexHolder& index, IndexWriterOptions options)
    : index_(index), writer_(index.dir(), std::move(options)),
      committed_end_(writer_.next_doc_id()),
      next_doc_id_(committed_end_) {
  // A commit may have landed between the holder's open and our lock.
  if (std::string why = index_.refresh(); !why.empty()) throw IndexError(index_.dir(), why);
}

std::vector<DocId> DocWriter::add(std::vector<Document> docs) {
  std::lock_guard lk(mu_);
  std::vector<DocId> ids;
  ids.reserve(docs.size());
  for (Document& d : docs) {
    ids.push_back(writer_.add(std::move(d)));
    adds_.fetch_add(1, std::memory_order_relaxed);
  }
  next_doc_id_.store(writer_.next_doc_id(), std::memory_order_relaxed);
  return ids;
}

std::vector<DocId> DocWriter::update(std::vector<Document> docs) {
  std::lock_guard lk(mu_);
  std::vector<DocId> ids;
  ids.reserve(docs.size());
  for (Document& d : docs) {
    ids.push_back(writer_.update(std::move(d)));
    adds_.fetch_add(1, std::memory_order_relaxed);
    deletes_.fetch_add(1, std::memory_order_relaxed);
  }
  next_doc_id_.store(writer_.next_doc_id(), std::memory_order_relaxed);
  return ids;
}

bool DocWriter::delete_doc(DocId id) {
  std::lock_guard lk(mu_);
  if (id >= writer_.next_doc_id()) return false;
  if (id < committed_end_ && !is_live(*index_.current(), id)) return false;
  writer_.delete_doc(id);
  deletes_.fetch_add(1, std::memory_order_relaxed);
  return true;
}

void DocWriter::delete_url(const std::string& url) {
  std::lock_guard lk(mu_);
  writer_.delete_url(url);
  deletes_.fetch_add(1, std::memory_order_relaxed);
}

void DocWriter::delete_by_query(std::string_view query) {
  std::lock_guard lk(mu_);
  writer_.delete_by_query(query);
  deletes_.fetch_add(1, std::memory_order_relaxed);
}

CommitResult DocWriter::commit() {
  std::lock_guard lk(mu_);
  CommitResult result;
  result.stats = writer_.commit();
  committed_end_ = writer_.next_doc_id();
  adds_.store(0, std::memory_order_relaxed);
  deletes_.store(0, std::memory_order_relaxed);
  // Searches keep answering from the holder's old snapshot meanwhile; the
  // holder's lock is taken only for the swap.
  if (std::string why = index_.refresh(); !why.empty()) {
    throw IndexError(index_.dir(), "committed, but the commit cannot be opened for search: " + why);
  }
  result.generation = index_.current()->generation();
  return result;
}

WriterStatus DocWriter::status() const {
  return {adds_.load(std::memory_order_relaxed), deletes_.load(std::memory_order_relaxed),
          next_doc_id_.load(std::memory_order_relaxed)};
}

}  // namespace fts::serve
