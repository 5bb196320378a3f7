// Charikar's SimHash of a document, 64 bits: each feature's 64-bit hash
// votes +weight or -weight on every bit, and a bit of the fingerprint is set
// where the votes are positive. Documents whose weighted feature vectors are
// at angle theta get fingerprints about 64 * theta / pi bits apart.
//
// Features are the distinct analyzed terms of the title and the abstract,
// weight 1 each (kTerms): for abstracts of 20 to 100 words a changed word
// moves one feature of 20-70, and reordered sentences or a repeated word
// move none. Word 2-shingles (kShingles) double the features one changed
// word moves and are kept for the measurement in near_dupes_test.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace fts {

enum class SimHashFeatures { kTerms, kShingles };

class SimHasher {
 public:
  // kNoFingerprint (0) for a doc without terms; never 0 otherwise.
  uint64_t fingerprint(std::span<const std::string_view> title_terms,
                       std::span<const std::string_view> abstract_terms,
                       SimHashFeatures features = SimHashFeatures::kTerms) {
    const size_t title = title_terms.size();
    return fingerprint(
        title, title + abstract_terms.size(),
        [&](size_t i) { return i < title ? title_terms[i] : abstract_terms[i - title]; }, features);
  }
  // The same of the terms term_at(0) ... term_at(count - 1), the title's the
  // first title_count, without a vector of them (a 100 MB abstract has 20
  // million terms).
  template <class TermAt>
  uint64_t fingerprint(size_t title_count, size_t count, TermAt&& term_at,
                       SimHashFeatures features = SimHashFeatures::kTerms) {
    hashes_.clear();
    compact_at_ = kCompactAt;
    add_features(0, title_count, term_at, features);
    add_features(title_count, count, term_at, features);
    return vote();
  }

 private:
  // Past this many hashes the distinct ones are kept alone: a long text
  // holds as many as its distinct features, not its words.
  static constexpr size_t kCompactAt = size_t{1} << 16;

  template <class TermAt>
  void add_features(size_t begin, size_t end, TermAt& term_at, SimHashFeatures features) {
    uint64_t previous = 0;
    for (size_t i = begin; i < end; ++i) {
      const uint64_t h = feature_hash(term_at(i));
      if (features == SimHashFeatures::kTerms) {
        add(h);
      } else if (i > begin) {
        add(shingle_hash(previous, h));
      } else if (end - begin == 1) {
        add(h);  // a one-word field is its own shingle
      }
      previous = h;
    }
  }
  void add(uint64_t hash) {
    hashes_.push_back(hash);
    if (hashes_.size() >= compact_at_) compact();
  }
  static uint64_t feature_hash(std::string_view term);
  static uint64_t shingle_hash(uint64_t previous, uint64_t hash);
  void compact();  // hashes_ sorted, distinct
  uint64_t vote();

  std::vector<uint64_t> hashes_;  // reused: no allocation per doc once grown
  size_t compact_at_ = kCompactAt;
};

}  // namespace fts
