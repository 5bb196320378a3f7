// Word pairs: adjacent occurrences of two common words, indexed as one
// kAny key each so that a phrase of common words reads one short list
// instead of confirming positions at every doc that holds both words (of
// the 6M-doc dump, 126,230 docs hold `one`, `who` and `is`, 40 the phrase
// `"one who is"`, 49 both its pairs). Which words pair is fixed per index
// (the manifest lists them); every segment of the index holds the pairs of
// those words, so a pair missing from a segment's dictionary occurs
// nowhere in it.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace fts {

// Between the two words of a pair's key: tokens never hold a space.
inline constexpr char kPairSeparator = ' ';

inline std::string pair_term(std::string_view first, std::string_view second) {
  std::string out;
  out.reserve(first.size() + 1 + second.size());
  out.append(first).push_back(kPairSeparator);
  out.append(second);
  return out;
}

inline bool is_pair_term(std::string_view term) { return term.find(kPairSeparator) != std::string_view::npos; }

// The words a new index pairs unless told otherwise: common English words,
// picked by hand, that the default stopwords keep, as the analyzer stems
// them.
const std::vector<std::string>& default_pair_words();

// A set of pair words, looked up by the analyzed token.
class PairWords {
 public:
  PairWords() = default;
  explicit PairWords(std::vector<std::string> words) : list_(std::move(words)), words_(list_.begin(), list_.end()) {}
  bool empty() const { return list_.empty(); }
  bool contains(std::string_view word) const { return words_.contains(word); }
  // In the order given (the manifest's).
  const std::vector<std::string>& list() const { return list_; }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> list_;
  std::unordered_set<std::string, Hash, std::equal_to<>> words_;
};

}  // namespace fts
