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
                       SimHashFeatures features = SimHashFeatures::kTerms);

 private:
  std::vector<uint64_t> hashes_;  // reused: no allocation per doc once grown
};

}  // namespace fts
