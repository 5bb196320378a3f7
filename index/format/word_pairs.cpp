#include "index/format/word_pairs.h"

namespace fts {

const std::vector<std::string>& default_pair_words() {
  static const std::vector<std::string> words = {
      "is",  "it",   "he",    "was",   "for",  "on",   "are",  "as",   "with", "his",   "they", "at",
      "this", "from", "or",   "one",   "had",  "by",   "but",  "not",  "what", "all",   "were", "we",
      "when", "can",  "there", "use",  "an",   "each", "which", "she", "do",   "how",   "their", "if",
      "will", "other", "out",  "mani", "so",   "some", "her",  "would", "make", "like", "him",  "into",
      "has",  "two",  "more",  "see",  "no",   "could", "first", "been", "call", "who",  "may",  "part"};
  return words;
}

}  // namespace fts
