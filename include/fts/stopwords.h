// Stopword set: the contract's default list, none, or one read from a file.
// An index stores the set it was built with, so queries analyze as its
// documents did.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fts/export.h"

namespace fts {

class FTS_API Stopwords {
 public:
  // a and be have i in of that the to
  static Stopwords defaults();
  static Stopwords none();
  // One word per line (blank lines and lines starting with '#' ignored);
  // words are lowercased as the analyzer lowercases. Throws IoError with the
  // path when the file cannot be read.
  static Stopwords from_file(const std::string& path);
  // "default", "none" or a path, as the tools' --stopwords takes it.
  static Stopwords from_option(const std::string& spec);

  // Words are lowercased as the analyzer lowercases; empty ones are dropped.
  explicit Stopwords(std::vector<std::string> words);
  bool contains(std::string_view lowered_token) const;
  // Sorted, unique.
  const std::vector<std::string>& words() const { return words_; }
  bool operator==(const Stopwords& o) const { return words_ == o.words_; }

 private:
  // The only representation: contains() binary-searches it. The analyzer
  // asks only on a stem-memo miss, so a hash set would buy nothing, and a
  // single owning vector keeps copies and moves trivially correct.
  std::vector<std::string> words_;
};

}  // namespace fts
