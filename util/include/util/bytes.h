// Little-endian fixed-width and LEB128 varint encoding, with bounds-checked
// decoding: damaged data makes a reader fail, never read past its buffer.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace fts {

inline void put_u16(std::string& out, uint16_t v) { out.append(reinterpret_cast<const char*>(&v), 2); }
inline void put_u32(std::string& out, uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); }
inline void put_u64(std::string& out, uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); }
inline void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Unaligned little-endian loads from mapped files.
inline uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// A varint at p (before end), p moved past it; false (p unmoved) when cut
// off by end or longer than 10 bytes. For hot loops over varints: one- and
// two-byte values, nearly all of those in postings tails and dictionary
// blocks, are read inline, the rest by ByteReader.
inline bool read_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v);

// A cursor over bytes; every get_* returns false (and stays put) when the
// bytes run out or a varint is malformed.
class ByteReader {
 public:
  ByteReader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  bool get_u16(uint16_t& v) { return get_fixed(v); }
  bool get_u32(uint32_t& v) { return get_fixed(v); }
  bool get_u64(uint64_t& v) { return get_fixed(v); }
  bool get_varint(uint64_t& v) {
    uint64_t r = 0;
    const uint8_t* p = p_;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p == end_) return false;
      uint8_t b = *p++;
      r |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        v = r;
        p_ = p;
        return true;
      }
    }
    return false;
  }
  bool get_varint32(uint32_t& v) {
    uint64_t w;
    if (!get_varint(w) || w > UINT32_MAX) return false;
    v = static_cast<uint32_t>(w);
    return true;
  }
  bool get_bytes(size_t n, std::string_view& out) {
    if (static_cast<size_t>(end_ - p_) < n) return false;
    out = std::string_view(reinterpret_cast<const char*>(p_), n);
    p_ += n;
    return true;
  }
  bool skip(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) return false;
    p_ += n;
    return true;
  }
  const uint8_t* pos() const { return p_; }
  const uint8_t* end() const { return end_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

 private:
  template <class T>
  bool get_fixed(T& v) {
    if (static_cast<size_t>(end_ - p_) < sizeof(T)) return false;
    std::memcpy(&v, p_, sizeof(T));
    p_ += sizeof(T);
    return true;
  }
  const uint8_t* p_;
  const uint8_t* end_;
};

inline bool read_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
  if (p != end && *p < 0x80) {
    v = *p++;
    return true;
  }
  if (end - p >= 2 && p[1] < 0x80) {
    v = uint64_t(p[0] & 0x7f) | uint64_t(p[1]) << 7;
    p += 2;
    return true;
  }
  ByteReader r(p, end);
  if (!r.get_varint(v)) return false;
  p = r.pos();
  return true;
}

}  // namespace fts
