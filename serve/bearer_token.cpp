#include "serve/bearer_token.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fts::serve {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if ((a[i] | 0x20) != (b[i] | 0x20)) return false;
  }
  return true;
}

}  // namespace

std::string read_token_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("--token-file " + path + ": cannot read: " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw std::runtime_error("--token-file " + path + ": cannot read: " + std::strerror(errno));
  std::string_view token = trim(text.view());
  if (token.empty()) throw std::runtime_error("--token-file " + path + ": the file holds no token");
  for (char c : token) {
    if (is_space(c) || static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7e) {
      throw std::runtime_error("--token-file " + path + ": a token is one word of printable ASCII");
    }
  }
  return std::string(token);
}

bool bearer_matches(std::string_view authorization, std::string_view token) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() < kScheme.size() || !iequals(authorization.substr(0, kScheme.size()), kScheme)) return false;
  std::string_view given = trim(authorization.substr(kScheme.size()));
  // Every byte of the token is looked at whatever the given one holds, so
  // the time says nothing about how much of a guess was right.
  volatile unsigned char diff = given.size() == token.size() ? 0 : 1;
  for (size_t i = 0; i < token.size(); ++i) {
    const unsigned char g = i < given.size() ? static_cast<unsigned char>(given[i]) : 0;
    diff = static_cast<unsigned char>(diff | (g ^ static_cast<unsigned char>(token[i])));
  }
  return diff == 0;
}

}  // namespace fts::serve
