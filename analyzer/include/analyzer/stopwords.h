// Stopword set: a public type (fts/stopwords.h), implemented here.
#pragma once

#include "fts/stopwords.h"

#include <string>
#include <vector>

namespace fts {

// The words of a file of one word a line (# comments, blank lines and
// surrounding whitespace ignored), as stopword and pair-word files are
// written. Throws IoError naming what the file is.
std::vector<std::string> read_word_list(const std::string& path, const std::string& what);

}  // namespace fts
