#include "dump_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "dump/dump_reader.h"

namespace fts {
namespace {

// Compressed bytes read per system call; large enough that syscalls do not
// show up in profiles, small enough to stay in L2.
constexpr size_t kCompressedChunk = 256 * 1024;

std::string errno_text() { return std::strerror(errno); }

}  // namespace

// One spare byte: next_gzip_member() may keep a byte in front of a chunk.
DumpInput::DumpInput(const std::string& path) : in_buf_(new unsigned char[kCompressedChunk + 1]) {
  if (path == "-") {
    name_ = "<stdin>";
    fd_ = STDIN_FILENO;
  } else {
    name_ = path;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw DumpError(name_, "cannot open: " + errno_text());
    own_fd_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      if (own_fd_) ::close(fd_);
      throw DumpError(name_, "cannot read: is a directory");
    }
    if (S_ISREG(st.st_mode)) file_size_ = static_cast<uint64_t>(st.st_size);
  }
  try {
    // Sniff the format from the first bytes, whatever the file is called.
    while (in_len_ < 2 && !file_eof_) {
      size_t got = read_raw(reinterpret_cast<char*>(in_buf_.get()) + in_len_, kCompressedChunk - in_len_);
      if (got == 0) file_eof_ = true;
      in_len_ += got;
    }
    gzip_ = in_len_ >= 2 && in_buf_[0] == 0x1f && in_buf_[1] == 0x8b;
    if (gzip_) {
      // 15 + 16: a gzip wrapper only (a zlib or raw stream is not a .gz).
      if (inflateInit2(&zs_, 15 + 16) != Z_OK) throw DumpError(name_, "cannot initialise zlib");
      zs_ready_ = true;
      zs_.next_in = in_buf_.get();
      zs_.avail_in = static_cast<uInt>(in_len_);
    }
  } catch (...) {
    if (own_fd_) ::close(fd_);
    throw;
  }
}

DumpInput::~DumpInput() {
  if (zs_ready_) inflateEnd(&zs_);
  if (own_fd_) ::close(fd_);
}

uint64_t DumpInput::file_bytes_consumed() const {
  if (gzip_) return file_read_ - zs_.avail_in;
  return file_read_ - (in_len_ - in_pos_);
}

size_t DumpInput::read_raw(char* out, size_t n) {
  for (;;) {
    ssize_t got = ::read(fd_, out, n);
    if (got >= 0) {
      file_read_ += static_cast<uint64_t>(got);
      return static_cast<size_t>(got);
    }
    if (errno == EINTR) continue;
    throw DumpError(name_, "read error at byte " + std::to_string(file_read_) + ": " + errno_text());
  }
}

size_t DumpInput::read(char* out, size_t n) {
  n = std::min<size_t>(n, size_t{1} << 30);  // zlib counts in 32 bits
  size_t got = gzip_ ? read_gzip(out, n) : read_plain(out, n);
  produced_ += got;
  return got;
}

size_t DumpInput::read_plain(char* out, size_t n) {
  if (in_pos_ < in_len_) {  // the sniffed first bytes
    size_t take = std::min(n, in_len_ - in_pos_);
    std::memcpy(out, in_buf_.get() + in_pos_, take);
    in_pos_ += take;
    return take;
  }
  if (file_eof_) return 0;
  size_t got = read_raw(out, n);
  if (got == 0) file_eof_ = true;
  return got;
}

bool DumpInput::refill_compressed() {
  if (file_eof_) return false;
  size_t got = read_raw(reinterpret_cast<char*>(in_buf_.get()), kCompressedChunk);
  if (got == 0) {
    file_eof_ = true;
    return false;
  }
  zs_.next_in = in_buf_.get();
  zs_.avail_in = static_cast<uInt>(got);
  return true;
}

void DumpInput::gzip_fail(const std::string& what) const {
  throw DumpError(name_, what + " at compressed byte " + std::to_string(file_bytes_consumed()) +
                  " (uncompressed byte " + std::to_string(produced_ + (call_n_ - zs_.avail_out)) + ")");
}

bool DumpInput::next_gzip_member() {
  // gzip allows several members one after another (`cat a.gz b.gz`); zero
  // padding after the last one is tolerated as gzip(1) does; anything else
  // after a member is damage, not silently ignored.
  for (;;) {
    while (zs_.avail_in > 0 && zs_.next_in[0] == 0) {
      ++zs_.next_in;
      --zs_.avail_in;
    }
    if (zs_.avail_in == 0 && !refill_compressed()) return false;
    if (zs_.avail_in == 0) continue;
    if (zs_.next_in[0] != 0x1f) gzip_fail("corrupt gzip: trailing garbage after a member");
    if (zs_.avail_in < 2) {
      // The second magic byte is in the next read; keep the first one.
      unsigned char first = zs_.next_in[0];
      if (!refill_compressed()) gzip_fail("truncated gzip: member header cut short");
      // refill_compressed overwrote the buffer start; put the first byte back
      // in front by shifting (rare path, at most one chunk).
      std::memmove(in_buf_.get() + 1, zs_.next_in, zs_.avail_in);
      in_buf_[0] = first;
      zs_.next_in = in_buf_.get();
      ++zs_.avail_in;
    }
    if (zs_.next_in[1] != 0x8b) gzip_fail("corrupt gzip: trailing garbage after a member");
    if (inflateReset(&zs_) != Z_OK) gzip_fail("corrupt gzip: cannot start the next member");
    return true;
  }
}

size_t DumpInput::read_gzip(char* out, size_t n) {
  zs_.next_out = reinterpret_cast<unsigned char*>(out);
  zs_.avail_out = static_cast<uInt>(n);
  call_n_ = n;
  while (zs_.avail_out > 0) {
    if (member_done_) {
      if (!next_gzip_member()) break;
      member_done_ = false;
    }
    if (zs_.avail_in == 0 && !refill_compressed()) {
      gzip_fail("truncated gzip: the compressed stream ends early");
    }
    int rc = inflate(&zs_, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) {
      member_done_ = true;
    } else if (rc == Z_BUF_ERROR && zs_.avail_in == 0) {
      continue;  // needs more input: the loop refills
    } else if (rc != Z_OK) {
      gzip_fail(std::string("corrupt gzip: ") + (zs_.msg ? zs_.msg : "inflate failed"));
    }
  }
  return n - zs_.avail_out;
}

}  // namespace fts
