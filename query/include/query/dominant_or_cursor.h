// Union of one clause that holds most of the docs (a common term, whose
// count is known from its list's length) and the rest, merged. It counts
// as |big| + |rest \ big|, the second probing big at the rest's docs only:
// `survivorship OR r` or `freighters OR formerly` count in the rare
// terms' time instead of the common one's. Collected, the two are merged
// a batch of big's docs at a time, which beats setting and scanning a
// bitset's bits; among live docs, each merged batch is filtered by a bit
// test per doc. Without scores, for unions read to their end.
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "query/doc_cursor.h"

namespace fts {

class DominantOrCursor final : public DocCursor {
 public:
  // big: exact, with a known_count(); rest: exact.
  DominantOrCursor(std::unique_ptr<DocCursor> big, std::unique_ptr<DocCursor> rest)
      : big_(std::move(big)), rest_(std::move(rest)) {
    doc_ = std::min(big_->doc(), rest_->doc());
  }

  DocId next() override {
    if (doc_ == kNoMoreDocs) return doc_;
    if (big_->doc() == doc_) big_->next();
    if (rest_->doc() == doc_) rest_->next();
    return doc_ = std::min(big_->doc(), rest_->doc());
  }
  DocId advance(DocId target) override {
    if (doc_ == kNoMoreDocs || target <= doc_) return doc_;
    if (big_->doc() < target) big_->advance(target);
    if (rest_->doc() < target) rest_->advance(target);
    return doc_ = std::min(big_->doc(), rest_->doc());
  }
  uint64_t cost() const override { return big_->cost() + rest_->cost(); }
  uint64_t work() const override { return big_->work() + rest_->work(); }

  // Both children hold exactly the union's docs from doc() on.
  uint64_t count_remaining() override {
    const std::optional<uint64_t> big = big_->known_count();
    if (!big) return DocCursor::count_remaining();
    uint64_t n = *big;
    DocId batch[kBlockSize];
    while (const size_t got = rest_->take(batch, kBlockSize)) {
      for (size_t i = 0; i < got; ++i) {
        DocId b = big_->doc();
        if (b < batch[i]) b = big_->advance(batch[i]);
        n += b != batch[i];
      }
    }
    doc_ = kNoMoreDocs;
    return n;
  }
  void collect_remaining(std::vector<DocId>& out, DocId base) override {
    append_merged(out, [base](DocId* docs, size_t n) {
      for (size_t i = 0; i < n; ++i) docs[i] += base;
      return n;
    });
  }
  // big's count is of every doc, deleted or not: the merged batches are
  // filtered instead.
  uint64_t count_live(const LiveDocs& live) override {
    uint64_t n = 0;
    merge([&](const DocId* docs, size_t got) { n += live.count_live(docs, got); });
    return n;
  }
  void collect_live(std::vector<DocId>& out, DocId base, const LiveDocs& live) override {
    append_merged(out, [&](DocId* docs, size_t n) { return live.keep_live(docs, n, base); });
  }
  void explain(std::string& out, int depth) const override {
    explain_line(out, depth, "or(dominant)", cost());
    big_->explain(out, depth + 1);
    rest_->explain(out, depth + 1);
  }

 private:
  // Every doc from doc() on, ascending, each once, consuming the cursor:
  // to emit(docs, count) a batch at a time. A batch of big's docs is passed
  // on as it is when the rest has none up to its last, else merged with
  // them.
  template <class Emit>
  void merge(Emit&& emit) {
    DocId big[kBlockSize], rest[kBlockSize], out[3 * kBlockSize];
    while (const size_t nb = big_->take(big, kBlockSize)) {
      size_t got = rest_->take_through(big[nb - 1], rest, kBlockSize);
      if (got == 0) {
        emit(big, nb);
        continue;
      }
      size_t i = 0, n = 0;
      for (; got != 0; got = rest_->take_through(big[nb - 1], rest, kBlockSize)) {
        if (n >= kBlockSize) {  // room for this chunk and big's rest
          emit(out, n);
          n = 0;
        }
        for (size_t j = 0; j < got; ++j) {
          while (i < nb && big[i] < rest[j]) out[n++] = big[i++];
          if (i == nb || big[i] != rest[j]) out[n++] = rest[j];
        }
      }
      while (i < nb) out[n++] = big[i++];
      emit(out, n);
    }
    while (const size_t got = rest_->take(rest, kBlockSize)) emit(rest, got);
    doc_ = kNoMoreDocs;
  }

  // merge() into out, a batch at a time, each appended whole and then
  // passed through keep(docs, n) in place, which returns how many stay (as
  // DocCursor::append_taken does with take()).
  template <class Keep>
  void append_merged(std::vector<DocId>& out, Keep&& keep) {
    merge([&](const DocId* docs, size_t got) {
      const size_t from = out.size();
      out.insert(out.end(), docs, docs + got);
      out.resize(from + keep(out.data() + from, got));
    });
  }

  std::unique_ptr<DocCursor> big_;
  std::unique_ptr<DocCursor> rest_;
};

}  // namespace fts
