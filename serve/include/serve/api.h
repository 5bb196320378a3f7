// The HTTP/JSON API of fts-serve, apart from any socket: a request in, a
// response out. Routes, parameter checks and bounds, JSON bodies, error
// statuses; the transport (serve/http_server.h) adds the connection limits.
//
//   GET /search?q=&limit=&offset=&sort=score|doc&total_hits=N|exact
//   GET /count?q=   GET /explain?q=
//   GET /docs/{id}   GET /stats   GET /health   GET / (the search page)
// and, on a --writable server, the write endpoints (serve/write_api.h);
// without one they answer 405.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "serve/index_holder.h"
#include "serve/metrics.h"

namespace fts::serve {

struct ApiLimits {
  size_t max_limit = 100;
  size_t max_offset = 10000;
  size_t max_query_bytes = 1024;
  size_t max_query_words = 64;  // words and phrase words, operators excluded
  double time_budget_ms = 2000;  // past it a search answers 504
};

struct ApiRequest {
  std::string_view method;  // "GET", ...
  std::string_view target;  // "/search?q=cat"
  std::string_view body;
  std::string_view authorization;  // the Authorization header, if any
  std::string_view content_type;   // the Content-Type header, if any
};

struct ApiResponse {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type
};

class WriteApi;

class Api {
 public:
  // writes: null for a read-only server.
  Api(IndexHolder& index, const Metrics& metrics, ApiLimits limits, const WriteApi* writes = nullptr);

  ApiResponse handle(const ApiRequest& request) const;

  // /health answers 503 while the server drains.
  void set_draining() { draining_.store(true, std::memory_order_relaxed); }

  // A JSON error body: {"error": message, "status": status}.
  static ApiResponse error(unsigned status, std::string_view message);

 private:
  struct Params;
  ApiResponse search(const Params& p) const;
  ApiResponse count(const Params& p) const;
  ApiResponse explain(const Params& p) const;
  ApiResponse document(std::string_view id) const;
  ApiResponse stats() const;
  ApiResponse health() const;

  IndexHolder& index_;
  const Metrics& metrics_;
  ApiLimits limits_;
  const WriteApi* writes_;
  std::atomic<bool> draining_{false};
  double started_ = 0;
};

}  // namespace fts::serve
