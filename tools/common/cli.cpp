#include "common/cli.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>

#include <fmt/core.h>

#include "common/sha1.h"

namespace fts::cli {

void print_error(const char* tool, std::string_view message) {
  // Keep it one line whatever the message holds.
  std::string line(message);
  for (char& c : line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  // fwrite, not fmt::print: this runs in error handlers, and a stderr that
  // cannot take the line (a file on the full disk that caused the error)
  // must not turn exit 1 into an exception escaping main (abort).
  const std::string text = fmt::format("{}: {}\n", tool, line);
  (void)std::fwrite(text.data(), 1, text.size(), stderr);
}

std::string json_line(const Json& j) {
  std::string line = j.dump(-1, ' ', false, Json::error_handler_t::replace);
  line.push_back('\n');
  return line;
}

double rounded(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

std::string sha1_hex(std::string_view data) {
  Sha1 s;
  s.update(data.data(), data.size());
  return s.hex();
}

std::string docs_sha1(const std::vector<DocId>& ids) {
  Sha1 s;
  char buf[16];
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i) s.update("\n", 1);
    int n = std::snprintf(buf, sizeof buf, "%u", ids[i]);
    s.update(buf, static_cast<size_t>(n));
  }
  return s.hex();
}

std::string with_thousands(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0;
}

bool stderr_is_terminal() { return ::isatty(2); }
bool stdout_is_terminal() { return ::isatty(1); }

}  // namespace fts::cli
