// One JSON line per request (time, remote, method, path, status, bytes, ms)
// to a file or stderr. The query string is left out: it holds what people
// searched for.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>
#include <string_view>

namespace fts::serve {

struct AccessLogEntry {
  std::string_view remote, method, target;  // target: the path is logged, not the query
  unsigned status = 0;
  size_t bytes = 0;  // of the response body
  double ms = 0;     // from the end of the request's header to the end of the response
};

class AccessLog {
 public:
  // path: a file to append to, "-" for stderr, "" for no log. Throws
  // std::runtime_error when the file cannot be opened.
  explicit AccessLog(const std::string& path);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  void write(const AccessLogEntry& e);
  // A server event (start, reload, drain) in the same format.
  void note(std::string_view event, std::string_view detail = {});

 private:
  void emit(const std::string& line);
  std::FILE* out_ = nullptr;
  bool owned_ = false;
  std::mutex mu_;
};

}  // namespace fts::serve
