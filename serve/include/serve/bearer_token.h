// The bearer token that guards fts-serve's write endpoints: read once from
// a file at startup, and compared with each request's Authorization header
// in time that does not depend on where the two differ.
#pragma once

#include <string>
#include <string_view>

namespace fts::serve {

// The file's content without surrounding whitespace (a trailing newline is
// usual). Throws std::runtime_error with a one-line reason when the file
// cannot be read or holds no token.
std::string read_token_file(const std::string& path);

// True when authorization is "Bearer TOKEN" (the scheme in any case) with
// exactly token. The time taken depends on token's length only.
bool bearer_matches(std::string_view authorization, std::string_view token);

}  // namespace fts::serve
