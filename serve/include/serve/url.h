// Request targets: the path and the decoded query-string parameters, with an
// error that says which parameter and which byte is wrong.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fts::serve {

struct Target {
  std::string path;  // percent-decoded
  std::vector<std::pair<std::string, std::string>> params;  // decoded, in order
};

// Splits and decodes "PATH?a=1&b=x+y". Returns an empty string on success,
// else a one-line reason ("bad percent-encoding in q at byte 3").
std::string parse_target(std::string_view target, Target& out);

// Decodes %XY and '+' (a space in a query string). False on a bad escape;
// error_at is then its offset in `in`.
bool percent_decode(std::string_view in, bool plus_is_space, std::string& out, size_t& error_at);

// True if s is well-formed UTF-8; else bad_at is the offset of the first bad byte.
bool valid_utf8(std::string_view s, size_t& bad_at);

}  // namespace fts::serve
