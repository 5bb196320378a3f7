#include "serve/access_log.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace fts::serve {

namespace {

std::string utc_now() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
  return buf;
}

std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace

AccessLog::AccessLog(const std::string& path) {
  if (path.empty()) return;
  if (path == "-") {
    out_ = stderr;
    return;
  }
  out_ = std::fopen(path.c_str(), "a");
  if (!out_) throw std::runtime_error(path + ": cannot open the access log: " + std::strerror(errno));
  owned_ = true;
}

AccessLog::~AccessLog() {
  if (owned_) std::fclose(out_);
}

void AccessLog::write(const AccessLogEntry& e) {
  if (!out_) return;
  std::string_view path = e.target.substr(0, e.target.find('?'));
  emit(dump({{"time", utc_now()},
             {"remote", e.remote},
             {"method", e.method},
             {"path", path},
             {"status", e.status},
             {"bytes", e.bytes},
             {"ms", static_cast<double>(static_cast<int64_t>(e.ms * 1000.0)) / 1000.0}}));
}

void AccessLog::note(std::string_view event, std::string_view detail) {
  if (!out_) return;
  nlohmann::json j{{"time", utc_now()}, {"event", event}};
  if (!detail.empty()) j["detail"] = detail;
  emit(dump(j));
}

void AccessLog::emit(const std::string& line) {
  std::lock_guard lk(mu_);
  // A full disk under the log must not take the server down: the line is lost.
  (void)std::fwrite(line.data(), 1, line.size(), out_);
  (void)std::fputc('\n', out_);
  (void)std::fflush(out_);
}

}  // namespace fts::serve
