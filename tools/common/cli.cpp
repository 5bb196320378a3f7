#include "common/cli.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>

#include <fmt/core.h>

#include "analyzer/analyzer.h"  // detail::decode_utf8

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

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const unsigned char c = *p;
    if (c >= 0x80) {
      // JSON is UTF-8: copy well-formed sequences, and write each byte of a
      // malformed one (dumps and queries may hold any bytes) as U+FFFD.
      char32_t cp;
      const size_t n = detail::decode_utf8(p, end, cp);
      if (cp == detail::kNotToken) {
        out += "\\ufffd";
      } else {
        out.append(reinterpret_cast<const char*>(p), n);
      }
      p += n;
      continue;
    }
    ++p;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
}

namespace {

uint32_t rol(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

class Sha1 {
 public:
  void update(const void* data, size_t len) {
    auto* p = static_cast<const uint8_t*>(data);
    total_ += len;
    while (len > 0) {
      size_t take = std::min(len, sizeof block_ - used_);
      std::copy(p, p + take, block_ + used_);
      used_ += take;
      p += take;
      len -= take;
      if (used_ == sizeof block_) {
        compress();
        used_ = 0;
      }
    }
  }
  std::string hex() {
    uint64_t bits = total_ * 8;
    uint8_t pad = 0x80;
    update(&pad, 1);
    uint8_t zero = 0;
    while (used_ != 56) update(&zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; ++i) len[i] = static_cast<uint8_t>(bits >> (56 - 8 * i));
    update(len, 8);
    std::string out;
    for (uint32_t v : h_) out += fmt::format("{:08x}", v);
    return out;
  }

 private:
  void compress() {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = uint32_t(block_[4 * i]) << 24 | uint32_t(block_[4 * i + 1]) << 16 | uint32_t(block_[4 * i + 2]) << 8 |
             block_[4 * i + 3];
    }
    for (int i = 16; i < 80; ++i) w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5A827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ED9EBA1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8F1BBCDC;
      } else {
        f = b ^ c ^ d;
        k = 0xCA62C1D6;
      }
      uint32_t t = rol(a, 5) + f + e + k + w[i];
      e = d;
      d = c;
      c = rol(b, 30);
      b = a;
      a = t;
    }
    h_[0] += a;
    h_[1] += b;
    h_[2] += c;
    h_[3] += d;
    h_[4] += e;
  }
  uint32_t h_[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  uint8_t block_[64];
  size_t used_ = 0;
  uint64_t total_ = 0;
};

}  // namespace

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
