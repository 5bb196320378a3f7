// Stopword set: the contract's default list, none, or one read from a file.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace fts {

class Stopwords {
 public:
  // a and be have i in of that the to
  static Stopwords defaults();
  static Stopwords none();
  // One word per line (blank lines and lines starting with '#' ignored);
  // words are lowercased as the analyzer lowercases. Throws std::runtime_error
  // with the path when the file cannot be read.
  static Stopwords from_file(const std::string& path);
  // "default", "none" or a path, as the tools' --stopwords takes it.
  static Stopwords from_option(const std::string& spec);

  explicit Stopwords(std::vector<std::string> words);
  bool contains(std::string_view lowered_token) const;
  // Sorted, unique: stored in the index so queries analyze as documents did.
  const std::vector<std::string>& words() const { return words_; }
  bool operator==(const Stopwords& o) const { return words_ == o.words_; }

 private:
  std::vector<std::string> words_;
  std::unordered_set<std::string_view> set_;
};

}  // namespace fts
