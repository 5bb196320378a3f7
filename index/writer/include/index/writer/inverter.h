// In-memory inverter: accumulates analyzed documents into per-term postings
// (doc ids, freqs, positions for title and abstract) in compact varint
// buffers, and knows how much memory it holds so the writer can flush a
// segment when the budget is reached.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "index/format/fields.h"
#include "index/format/word_pairs.h"

namespace fts {

// A term of a document: its text, a view into a batch's term pool, and its
// number in the analyzer's term_numbering (Analyzer::for_each_numbered_term;
// Analyzer::kNoNumber: none).
struct AnalyzedTerm {
  std::string_view text;
  uint32_t number = 0;
};

// One analyzed document: its terms per field, in token order; the
// numbering of their numbers (0: they have none); its SimHash fingerprint
// (simhash.h), where the segment keeps fingerprints; plus the fields to
// store.
struct AnalyzedDoc {
  std::vector<AnalyzedTerm> title_terms, abstract_terms;
  uint64_t term_numbering = 0;
  uint64_t fingerprint = 0;
  std::string title, url, abstract;
};

class Inverter {
 public:
  // pair_words (null: none; must outlive the inverter): adjacent
  // occurrences of two of them, in one field, are inverted as one more
  // term, the pair (word_pairs.h), at the first word's position.
  explicit Inverter(const PairWords* pair_words = nullptr);
  // Doc ids are consecutive from 0 in the order of add().
  void add(const AnalyzedDoc& doc);
  uint32_t doc_count() const { return doc_count_; }
  size_t memory_bytes() const;
  bool empty() const { return doc_count_ == 0; }

  struct Postings {       // varints per doc: doc delta, freq, freq position deltas
    std::string bytes;
    uint32_t last_doc = 0;
    uint32_t doc_freq = 0;
    uint64_t total_freq = 0;
  };
  struct Term {
    std::string_view text;
    Postings fields[2];  // title, abstract
    bool pair = false;   // a word pair's term
  };
  // Term ids sorted by term text (bytewise).
  std::vector<uint32_t> sorted_term_ids() const;
  const Term& term(uint32_t id) const { return terms_[id]; }
  size_t term_count() const { return terms_.size(); }
  // Per doc {title length, abstract length} in analyzed tokens.
  const std::vector<uint32_t>& field_lengths() const { return lengths_; }

 private:
  uint32_t intern(std::string_view text);
  // The term id of a numbered term: a table lookup once its number has
  // been seen, without hashing its text again.
  uint32_t id_of(const AnalyzedTerm& term);
  void add_field(int field, const std::vector<AnalyzedTerm>& terms);
  // The term of the pair of two terms that are pair words.
  uint32_t pair_id(uint32_t first, uint32_t second);

  std::vector<std::unique_ptr<char[]>> arena_;  // term text storage
  size_t arena_used_ = 0, arena_cap_ = 0;
  std::vector<Term> terms_;
  // Open-addressing table of term ids keyed by text hash.
  std::vector<uint32_t> table_;
  // Term ids by term number in numbering_ (kEmpty: not seen yet).
  std::vector<uint32_t> id_of_number_;
  uint64_t numbering_ = 0;
  size_t postings_bytes_ = 0;
  std::vector<uint32_t> lengths_;
  uint32_t doc_count_ = 0;
  const PairWords* pair_words_;
  std::vector<bool> is_pair_word_;  // by term id
  std::unordered_map<uint64_t, uint32_t> pair_ids_;  // (first id, second id) -> term id
  std::string pair_text_;
  // Scratch for one field of one doc: (term id, position) pairs.
  std::vector<uint64_t> scratch_;
};

}  // namespace fts
