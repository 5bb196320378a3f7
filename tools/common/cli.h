// Small pieces the tools share: error reporting, JSON lines, SHA-1 of
// result ids, clocks and memory figures.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "index/format/fields.h"

namespace fts::cli {

// Exit codes of the contract.
inline constexpr int kOk = 0, kRuntimeError = 1, kUsageError = 2;

// A bad command line: the tool prints it and exits with kUsageError.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Prints "TOOL: message" to stderr (one line).
void print_error(const char* tool, std::string_view message);

// JSON objects keep their keys in the order written, as the peers' schema
// lists them.
using Json = nlohmann::ordered_json;

// One line of JSON and its newline. Stored text may hold any bytes: invalid
// UTF-8 goes out as U+FFFD rather than failing the output.
std::string json_line(const Json& j);

// x rounded to `decimals` places, so that JSON carries the digits a reader
// needs (a score to 4 places, a latency to 3) rather than 17.
double rounded(double x, int decimals);

// SHA-1 (hex) of ids in decimal joined by '\n', as ../shared/peers specifies.
std::string docs_sha1(const std::vector<DocId>& ascending_ids);
std::string sha1_hex(std::string_view data);

// 1234567 -> "1,234,567", for counts a person reads.
std::string with_thousands(uint64_t n);

double now_seconds();           // monotonic
double peak_rss_mb();           // VmHWM
bool stderr_is_terminal();
bool stdout_is_terminal();

}  // namespace fts::cli
