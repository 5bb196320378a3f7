#include "analyzer/stopwords.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <system_error>

#include "analyzer/analyzer.h"
#include "fts/errors.h"

namespace fts {

Stopwords::Stopwords(std::vector<std::string> words) {
  words_.reserve(words.size());
  for (auto& w : words)
    if (!w.empty()) words_.push_back(detail::lowercase_utf8(w));
  std::sort(words_.begin(), words_.end());
  words_.erase(std::unique(words_.begin(), words_.end()), words_.end());
}

Stopwords Stopwords::defaults() {
  return Stopwords({"a", "and", "be", "have", "i", "in", "of", "that", "the", "to"});
}

Stopwords Stopwords::none() { return Stopwords(std::vector<std::string>{}); }

std::vector<std::string> read_word_list(const std::string& path, const std::string& what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw IoError(path, "cannot read " + what + ": it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path, "cannot read " + what + ": " + std::strerror(errno));
  std::vector<std::string> words;
  std::string line;
  while (std::getline(in, line)) {
    // Trim ASCII whitespace (CR too, so files written on Windows work).
    const auto first = line.find_first_not_of(" \t\r\f\v");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r\f\v");
    words.push_back(line.substr(first, last - first + 1));
  }
  if (in.bad()) throw IoError(path, "error while reading " + what);
  return words;
}

Stopwords Stopwords::from_file(const std::string& path) {
  std::vector<std::string> words = read_word_list(path, "stopword file");
  return Stopwords(std::move(words));
}

Stopwords Stopwords::from_option(const std::string& spec) {
  if (spec == "default") return defaults();
  if (spec == "none") return none();
  return from_file(spec);
}

bool Stopwords::contains(std::string_view lowered_token) const {
  return std::binary_search(words_.begin(), words_.end(), lowered_token, std::less<>{});
}

}  // namespace fts
