// The analyzer of the contract: UTF-8 tokenizer (runs of Unicode L*/N* code
// points) -> Unicode simple lowercase -> stopword filter -> Snowball English.
// The same analyzer runs on documents and on query terms.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/stopwords.h"

namespace fts {

class Analyzer {
 public:
  explicit Analyzer(Stopwords stopwords = Stopwords::defaults());
  ~Analyzer();
  Analyzer(Analyzer&&) noexcept;
  Analyzer& operator=(Analyzer&&) noexcept;

  // Calls emit(std::string_view term) for each analyzed term, in order.
  // The view is valid only during the call. Not thread-safe: the Snowball
  // stemmer and the stem memo are per instance, so use one Analyzer a thread.
  // Allocation-free in steady state. The stem memo is bounded (2^17 entries:
  // typically 3-5 MB, 14 MB worst case).
  // A moved-from Analyzer may only be destroyed or assigned to.
  template <class Emit>
  void for_each_term(std::string_view text, Emit&& emit);

  // The same, calling emit(std::string_view term, std::uint32_t number):
  // the terms are numbered densely in the order this Analyzer first numbers
  // them, so that a caller can key tables by number instead of hashing the
  // text again (the stem memo keeps the numbers of its entries). Past a
  // million terms the numbering starts over and term_numbering() changes;
  // a number stands for one term only within one term_numbering(). A token
  // too long for the memo (over 40 bytes) gives its term kNoNumber.
  static constexpr std::uint32_t kNoNumber = UINT32_MAX;
  template <class Emit>
  void for_each_numbered_term(std::string_view text, Emit&& emit);
  std::uint64_t term_numbering() const;

  // Convenience: the analyzed terms of text.
  std::vector<std::string> analyze(std::string_view text);

  const Stopwords& stopwords() const { return stopwords_; }

 private:
  // Lowercased token -> stem (memoized); empty view when it is a stopword.
  // tag is memo_tag(lowered). With number, also the stem's number, when it
  // is not a stopword.
  std::string_view stem(std::string_view lowered, std::uint32_t tag, std::uint32_t* number);
  // The memo's hash tag of a lowered token, and prefetches of what looking
  // it up will read: first its slot, then (once the slot is in cache) the
  // key and stem the slot points at.
  static std::uint32_t memo_tag(std::string_view lowered);
  void prefetch_slot(std::uint32_t tag) const;
  void prefetch_entry(std::uint32_t tag) const;
  // Splits text into lowercased tokens; calls on_token for each.
  template <class OnToken>
  static void tokenize(std::string_view text, std::string& scratch, OnToken&& on_token);
  // Calls on_stem(term, number) for each term of text (number: only when
  // numbered). The text's tokens are gathered first so that the memo's
  // cache misses overlap instead of following one another.
  template <class OnStem>
  void for_each_stem(std::string_view text, bool numbered, OnStem&& on_stem);

  // A token of the text being analyzed: its bytes in batch_text_ and its tag.
  struct PendingToken {
    std::size_t offset, size;
    std::uint32_t tag;
  };

  struct Impl;
  Stopwords stopwords_;
  std::unique_ptr<Impl> impl_;
  std::string scratch_;
  std::string batch_text_;
  std::vector<PendingToken> batch_;
};

}  // namespace fts

#include "analyzer/analyzer_inl.h"
