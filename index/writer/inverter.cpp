#include "index/writer/inverter.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "analyzer/analyzer.h"
#include "util/bytes.h"

namespace fts {

namespace {
constexpr uint32_t kEmpty = UINT32_MAX;
constexpr size_t kArenaChunk = 1 << 20;

size_t hash_text(std::string_view s) { return std::hash<std::string_view>{}(s); }
}  // namespace

Inverter::Inverter(const PairWords* pair_words)
    : table_(1 << 16, kEmpty), pair_words_(pair_words && !pair_words->empty() ? pair_words : nullptr) {}

uint32_t Inverter::intern(std::string_view text) {
  size_t mask = table_.size() - 1;
  size_t slot = hash_text(text) & mask;
  while (table_[slot] != kEmpty) {
    if (terms_[table_[slot]].text == text) return table_[slot];
    slot = (slot + 1) & mask;
  }
  // Copy the text into the arena; a term longer than a chunk gets its own.
  if (arena_used_ + text.size() > arena_cap_) {
    size_t cap = std::max(kArenaChunk, text.size());
    arena_.push_back(std::make_unique<char[]>(cap));
    arena_used_ = 0;
    arena_cap_ = cap;
  }
  char* dst = arena_.back().get() + arena_used_;
  std::memcpy(dst, text.data(), text.size());
  arena_used_ += text.size();
  auto id = static_cast<uint32_t>(terms_.size());
  terms_.push_back(Term{std::string_view(dst, text.size()), {}});
  if (pair_words_) is_pair_word_.push_back(pair_words_->contains(text));
  table_[slot] = id;
  if (terms_.size() * 2 > table_.size()) {
    std::vector<uint32_t> bigger(table_.size() * 2, kEmpty);
    size_t m = bigger.size() - 1;
    for (uint32_t t = 0; t < terms_.size(); ++t) {
      size_t s = hash_text(terms_[t].text) & m;
      while (bigger[s] != kEmpty) s = (s + 1) & m;
      bigger[s] = t;
    }
    table_.swap(bigger);
  }
  return id;
}

uint32_t Inverter::id_of(const AnalyzedTerm& term) {
  if (numbering_ == 0 || term.number == Analyzer::kNoNumber) return intern(term.text);
  if (term.number >= id_of_number_.size()) {
    id_of_number_.resize(std::max<size_t>(size_t(term.number) + 1, 2 * id_of_number_.size()), kEmpty);
  }
  uint32_t& id = id_of_number_[term.number];
  if (id == kEmpty) id = intern(term.text);
  return id;
}

uint32_t Inverter::pair_id(uint32_t first, uint32_t second) {
  auto [it, added] = pair_ids_.try_emplace(uint64_t(first) << 32 | second, 0);
  if (added) {
    pair_text_ = pair_term(terms_[first].text, terms_[second].text);
    it->second = intern(pair_text_);
    terms_[it->second].pair = true;
  }
  return it->second;
}

void Inverter::add_field(int field, const std::vector<AnalyzedTerm>& terms) {
  // (term id, position) pairs sorted group each term's positions together.
  scratch_.clear();
  uint32_t previous = kEmpty;  // the term before, when a pair word
  for (uint32_t pos = 0; pos < terms.size(); ++pos) {
    const uint32_t id = id_of(terms[pos]);
    scratch_.push_back(uint64_t(id) << 32 | pos);
    if (!pair_words_) continue;
    if (!is_pair_word_[id]) {
      previous = kEmpty;
      continue;
    }
    if (previous != kEmpty) scratch_.push_back(uint64_t(pair_id(previous, id)) << 32 | (pos - 1));
    previous = id;
  }
  std::sort(scratch_.begin(), scratch_.end());
  const uint32_t doc = doc_count_;
  for (size_t i = 0; i < scratch_.size();) {
    auto id = static_cast<uint32_t>(scratch_[i] >> 32);
    size_t j = i;
    while (j < scratch_.size() && (scratch_[j] >> 32) == id) ++j;
    Postings& p = terms_[id].fields[field];
    size_t cap_before = p.bytes.capacity();
    put_varint(p.bytes, p.doc_freq == 0 ? doc : doc - p.last_doc);
    put_varint(p.bytes, j - i);
    uint32_t prev = 0;
    for (size_t k = i; k < j; ++k) {
      auto pos = static_cast<uint32_t>(scratch_[k]);
      put_varint(p.bytes, pos - prev);
      prev = pos;
    }
    postings_bytes_ += p.bytes.capacity() - cap_before;
    p.last_doc = doc;
    p.doc_freq++;
    p.total_freq += j - i;
    i = j;
  }
}

void Inverter::add(const AnalyzedDoc& doc) {
  if (doc.term_numbering != numbering_) {
    // Another numbering (or none): the numbers seen so far name other terms.
    std::fill(id_of_number_.begin(), id_of_number_.end(), kEmpty);
    numbering_ = doc.term_numbering;
  }
  add_field(0, doc.title_terms);
  add_field(1, doc.abstract_terms);
  lengths_.push_back(static_cast<uint32_t>(doc.title_terms.size()));
  lengths_.push_back(static_cast<uint32_t>(doc.abstract_terms.size()));
  ++doc_count_;
}

size_t Inverter::memory_bytes() const {
  // Not id_of_number_: the analyzer's numbering bounds it (4 MB), not the
  // segment, and counted here it would fill a small budget at once.
  return postings_bytes_ + arena_.size() * kArenaChunk + terms_.capacity() * sizeof(Term) +
         pair_ids_.size() * 32 +
         (table_.size() + lengths_.capacity()) * sizeof(uint32_t);
}

std::vector<uint32_t> Inverter::sorted_term_ids() const {
  std::vector<uint32_t> ids(terms_.size());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i;
  std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) { return terms_[a].text < terms_[b].text; });
  return ids;
}

}  // namespace fts
