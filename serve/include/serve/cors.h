// CORS: which browser origins may call the API (fts-serve --cors, one or
// several: a web app, the browser extension's chrome-extension:// or
// moz-extension:// origin).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace fts::serve {

// Empty when `text` is an origin as browsers send it (scheme://host[:port]:
// no path, no trailing slash) or "*" (any origin); else a one-line reason.
std::string cors_origin_error(std::string_view text);

// The Access-Control-Allow-Origin to answer a request from `origin` with:
// the origin itself when it is allowed, "*" when any is, else empty (no
// header: the browser keeps the answer from the page).
std::string_view allowed_origin(const std::vector<std::string>& allowed, std::string_view origin);

}  // namespace fts::serve
