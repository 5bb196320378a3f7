#include "serve/cors.h"

#include <algorithm>
#include <cctype>

namespace fts::serve {

std::string cors_origin_error(std::string_view text) {
  if (text == "*") return "";
  const std::string shown = "'" + std::string(text) + "'";
  const size_t sep = text.find("://");
  if (sep == std::string_view::npos || sep == 0) {
    return shown + " is not an origin: expected scheme://host[:port], e.g. chrome-extension://ID";
  }
  const std::string_view scheme = text.substr(0, sep), host = text.substr(sep + 3);
  const bool scheme_ok = std::isalpha(static_cast<unsigned char>(scheme[0])) &&
                         std::all_of(scheme.begin(), scheme.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
                         });
  if (!scheme_ok) return shown + " is not an origin: bad scheme";
  if (host.empty()) return shown + " is not an origin: no host";
  // Browsers send no path, not even "/", so such a value would never match.
  for (char c : host) {
    if (c == '/' || c == '?' || c == '#') return shown + " is not an origin: no path or trailing slash (browsers send scheme://host[:port])";
    if (std::isspace(static_cast<unsigned char>(c)) || std::iscntrl(static_cast<unsigned char>(c))) {
      return shown + " is not an origin: it holds a space or a control character";
    }
  }
  return "";
}

namespace {

// Schemes and hosts are case-insensitive; browsers send them in lower case.
bool same_origin_text(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

}  // namespace

std::string_view allowed_origin(const std::vector<std::string>& allowed, std::string_view origin) {
  for (const std::string& a : allowed) {
    if (a == "*") return a;
    if (!origin.empty() && same_origin_text(a, origin)) return origin;
  }
  return {};
}

}  // namespace fts::serve
