// JSON bodies of fts-serve's responses (the API's own use; nlohmann::json is
// a private dependency of fts_serve).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "fts/errors.h"
#include "serve/api.h"

namespace fts::serve {

using json = nlohmann::ordered_json;

// Document text may hold any bytes: invalid UTF-8 goes out as U+FFFD rather
// than failing the response.
inline std::string to_body(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

inline ApiResponse json_response(unsigned status, const json& j) {
  ApiResponse r;
  r.status = status;
  r.body = to_body(j);
  r.body.push_back('\n');
  return r;
}

// 400 for a malformed query: the contract's message with its position.
inline ApiResponse syntax_error_response(const std::string& q, const QuerySyntaxError& e) {
  return json_response(400, json{{"error", "syntax error at position " + std::to_string(e.position()) + ": " + e.what()},
                                 {"status", 400},
                                 {"position", e.position()},
                                 {"query", q}});
}

}  // namespace fts::serve
