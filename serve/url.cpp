#include "serve/url.h"

#include <utf8proc.h>

namespace fts::serve {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

bool percent_decode(std::string_view in, bool plus_is_space, std::string& out, size_t& error_at) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    char c = in[i];
    if (c == '%') {
      int hi = i + 1 < in.size() ? hex_value(in[i + 1]) : -1;
      int lo = i + 2 < in.size() ? hex_value(in[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        error_at = i;
        return false;
      }
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return true;
}

bool valid_utf8(std::string_view s, size_t& bad_at) {
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(s.data());
  size_t i = 0;
  while (i < s.size()) {
    if (p[i] < 0x80) {
      ++i;
      continue;
    }
    utf8proc_int32_t cp;
    utf8proc_ssize_t n = utf8proc_iterate(p + i, static_cast<utf8proc_ssize_t>(s.size() - i), &cp);
    if (n <= 0) {
      bad_at = i;
      return false;
    }
    i += static_cast<size_t>(n);
  }
  return true;
}

std::string parse_target(std::string_view target, Target& out) {
  out = {};
  size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  size_t at = 0;
  if (path.empty() || path[0] != '/') return "the request target must be an absolute path";
  if (!percent_decode(path, false, out.path, at)) return "bad percent-encoding in the path at byte " + std::to_string(at);
  if (q == std::string_view::npos) return "";
  std::string_view rest = target.substr(q + 1);
  size_t offset = q + 1;
  while (!rest.empty()) {
    size_t amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    if (!pair.empty()) {
      size_t eq = pair.find('=');
      std::string key, value;
      if (!percent_decode(pair.substr(0, eq), true, key, at)) {
        return "bad percent-encoding in a parameter name at byte " + std::to_string(offset + at);
      }
      if (eq != std::string_view::npos && !percent_decode(pair.substr(eq + 1), true, value, at)) {
        return "bad percent-encoding in " + key + " at byte " + std::to_string(offset + eq + 1 + at);
      }
      out.params.emplace_back(std::move(key), std::move(value));
    }
    if (amp == std::string_view::npos) break;
    rest.remove_prefix(amp + 1);
    offset += amp + 1;
  }
  return "";
}

}  // namespace fts::serve
