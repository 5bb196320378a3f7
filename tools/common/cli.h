// Small pieces the tools share: error reporting, JSON strings, SHA-1 of
// result ids, clocks and memory figures.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "index/format/fields.h"

namespace fts::cli {

// Exit codes of the contract.
inline constexpr int kOk = 0, kRuntimeError = 1, kUsageError = 2;

// Prints "TOOL: message" to stderr (one line).
void print_error(const char* tool, std::string_view message);

void append_json_string(std::string& out, std::string_view s);

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
