// The transport of fts-serve: HTTP/1.1 with keep-alive on Boost.Beast over
// Boost.Asio (epoll). N threads run one io_context for all sockets; requests
// are answered on a pool of N search threads, so a slow search never stalls
// other connections' I/O, and a bounded count of waiting requests turns
// overload into 503 instead of an unbounded queue. Writes (POST, PUT, DELETE)
// run on a thread of their own, one at a time, so a long commit holds
// neither an io thread nor a search thread.
//
// Every resource a client can hold is bounded: request line (414), header
// bytes (431), body bytes (413), time to send a header (a byte-a-second
// client is dropped, 408), idle keep-alive time, open connections (503), and
// requests waiting for a search thread (503). drain() (SIGTERM) stops
// accepting, lets in-flight requests finish, closes idle connections, and
// run() returns.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "serve/access_log.h"
#include "serve/api.h"
#include "serve/metrics.h"

namespace fts::serve {

struct HttpOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;  // 0: an ephemeral port (see HttpServer::port)
  unsigned threads = 2;  // io threads, and as many search threads
  size_t max_request_line = 8 << 10;
  size_t max_header_bytes = 16 << 10;  // request line included
  size_t max_body_bytes = 8 << 20;
  std::chrono::milliseconds header_timeout{10000};  // from the first byte of a request to the end of its header
  std::chrono::milliseconds idle_timeout{30000};    // keep-alive wait for the next request
  std::chrono::milliseconds body_timeout{30000};
  std::chrono::milliseconds write_timeout{30000};
  size_t max_connections = 1024;
  size_t max_pending = 256;  // requests waiting for or on a search thread
  // Origins allowed to call the API from a browser: a request whose Origin
  // is one of them gets it back in Access-Control-Allow-Origin ("*" allows
  // any). Empty: no CORS headers.
  std::vector<std::string> cors_origins;
  std::chrono::milliseconds reload_interval{500};
  std::chrono::milliseconds drain_timeout{10000};
};

class HttpServer {
 public:
  // Binds at once (throws std::system_error when it cannot).
  HttpServer(HttpOptions options, Api& api, IndexHolder& index, Metrics& metrics, AccessLog& log);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  uint16_t port() const;  // the bound port
  // Serves until drained (SIGTERM or SIGINT, or drain()); returns then.
  void run();
  void drain();  // thread-safe

  struct Core;

 private:
  std::shared_ptr<Core> core_;
};

}  // namespace fts::serve
