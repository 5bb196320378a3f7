// The uncompressed bytes of a dump: a plain file, stdin ("-") or gzip
// (detected from the magic bytes, concatenated members included), handed out
// in chunks straight into the caller's buffer so nothing is copied twice.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace fts {

class DumpInput {
 public:
  // Throws DumpError when the file cannot be opened or read.
  explicit DumpInput(const std::string& path);
  ~DumpInput();
  DumpInput(const DumpInput&) = delete;
  DumpInput& operator=(const DumpInput&) = delete;

  // Reads up to n (> 0) uncompressed bytes into out. Returns 0 only at the
  // end of the input. Throws DumpError on a truncated or corrupt gzip stream
  // or a read error.
  size_t read(char* out, size_t n);

  const std::string& name() const { return name_; }
  bool is_gzip() const { return gzip_; }
  // Bytes of the file consumed (compressed bytes for gzip).
  uint64_t file_bytes_consumed() const;
  // Size of the file, 0 when unknown (pipes, terminals).
  uint64_t file_size() const { return file_size_; }
  // Uncompressed bytes handed out so far.
  uint64_t bytes_produced() const { return produced_; }

 private:
  size_t read_raw(char* out, size_t n);  // from the fd, retrying EINTR
  bool refill_compressed();              // false at the end of the file
  size_t read_plain(char* out, size_t n);
  size_t read_gzip(char* out, size_t n);
  // After a gzip member ended: true if another member follows.
  bool next_gzip_member();
  [[noreturn]] void gzip_fail(const std::string& what) const;

  std::string name_;
  int fd_ = -1;
  bool own_fd_ = false;
  bool gzip_ = false;
  bool file_eof_ = false;
  uint64_t file_size_ = 0;
  uint64_t file_read_ = 0;  // bytes read from the fd
  uint64_t produced_ = 0;

  // Compressed input for gzip; for plain input it only holds the first bytes
  // read to sniff the format.
  std::unique_ptr<unsigned char[]> in_buf_;
  size_t in_pos_ = 0, in_len_ = 0;

  z_stream zs_{};
  bool zs_ready_ = false;
  bool member_done_ = false;
  size_t call_n_ = 0;  // n of the read() in progress, for error offsets
};

}  // namespace fts
