// SHA-1 (FIPS 180-4), fed in pieces: the digest of the result ids that
// fts-bench prints for comparison with the peers' harnesses. Our own rather
// than OpenSSL's: libcrypto was the costliest library to load, about 3 ms
// of a cold fts-search process on this machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace fts::cli {

class Sha1 {
 public:
  void update(const void* data, size_t len);
  // The digest as 40 lowercase hex digits; the object is spent after it.
  std::string hex();

 private:
  void compress(const uint8_t* block);

  uint32_t state_[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
  uint64_t length_ = 0;  // bytes fed so far
  uint8_t buffer_[64] = {};
  size_t buffered_ = 0;
};

}  // namespace fts::cli
