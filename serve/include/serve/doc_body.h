// The documents of a POST /docs body, read whole before any is added, so a
// bad body adds nothing: JSON lines ({"title","url","abstract"} per line) or
// a dump in the enwiki abstract format (plain or gzip), read by the dump
// reader fts-index build uses.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fts/document.h"

namespace fts::serve {

// Returns an empty string, or a one-line reason naming the line at fault
// ("line 3: title must be a string"). Blank lines are skipped.
std::string parse_doc_lines(std::string_view body, std::vector<Document>& out);

// Returns an empty string, or a one-line reason (a malformed <doc>, a body
// that is not a dump, a corrupt gzip stream).
std::string parse_dump(std::string_view body, std::vector<Document>& out);

}  // namespace fts::serve
