// File framing: crash-safe writing (tmp file, fsync, rename, fsync of the
// directory) and validated read-only mapping.
#include "index/format/file_format.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "util/bytes.h"

namespace fts {
namespace {

constexpr char kMagic[4] = {'F', 'T', 'S', '\0'};
constexpr char kEndMagic[4] = {'\0', 'S', 'T', 'F'};
// Large enough that write() syscalls are rare, small enough not to matter
// next to the indexer's own memory.
constexpr size_t kWriteBufferSize = 1 << 20;

std::string errno_text(int err) { return std::strerror(err); }

// ---- small helpers ---------------------------------------------------------


std::string dir_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

}  // namespace



const char* file_kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::kManifest: return "manifest";
    case FileKind::kPostings: return "postings";
    case FileKind::kPositions: return "positions";
    case FileKind::kTermDict: return "term dictionary";
    case FileKind::kDocStore: return "doc store";
    case FileKind::kNorms: return "norms";
    case FileKind::kLiveDocs: return "live docs";
    case FileKind::kDocIds: return "doc ids";
    case FileKind::kBloom: return "Bloom filter";
    case FileKind::kUrls: return "url table";
    case FileKind::kFingerprints: return "fingerprints";
    case FileKind::kClusterIds: return "cluster ids";
    case FileKind::kShards: return "shards manifest";
  }
  return "unknown";
}

void throw_corrupt(const std::string& path, uint64_t offset, const std::string& what) {
  throw IndexError(path, "offset " + std::to_string(offset) + ": " + what);
}

void VectorSink::write(const void* data, size_t size) { bytes.append(static_cast<const char*>(data), size); }

// ---- FileWriter ------------------------------------------------------------

FileWriter::FileWriter(std::string path, FileKind kind) : path_(std::move(path)), tmp_path_(path_ + ".tmp") {
  fd_ = ::open(tmp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw IoError(path_, "cannot create " + tmp_path_ + ": " + errno_text(errno));
  buffer_.reserve(kWriteBufferSize);
  buffer_.append(kMagic, 4);
  put_u32(buffer_, static_cast<uint32_t>(kind));
  put_u32(buffer_, kFormatVersion);
  put_u32(buffer_, 0);
}

FileWriter::~FileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!finished_) ::unlink(tmp_path_.c_str());
}

void FileWriter::fail(const char* what, int err) {
  throw IoError(path_, std::string(what) + ": " + errno_text(err));
}

void FileWriter::write_fully(const void* data, size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t n = ::write(fd_, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write failed", errno);
    }
    // A regular file never accepts zero bytes unless it cannot grow.
    if (n == 0) fail("write failed", ENOSPC);
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void FileWriter::flush_buffer() {
  if (buffer_.empty()) return;
  crc_ = crc32c(crc_, buffer_.data(), buffer_.size());
  write_fully(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void FileWriter::write(const void* data, size_t size) {
  if (fd_ < 0) throw std::logic_error("FileWriter::write after finish: " + path_);
  if (buffer_.size() + size > kWriteBufferSize) {
    flush_buffer();
    if (size >= kWriteBufferSize) {  // large writes bypass the buffer
      crc_ = crc32c(crc_, data, size);
      write_fully(data, size);
      payload_size_ += size;
      return;
    }
  }
  buffer_.append(static_cast<const char*>(data), size);
  payload_size_ += size;
}

void FileWriter::finish() {
  if (fd_ < 0) throw std::logic_error("FileWriter::finish called twice: " + path_);
  flush_buffer();
  std::string footer;
  put_u64(footer, payload_size_);
  put_u32(footer, crc_);
  footer.append(kEndMagic, 4);
  write_fully(footer.data(), footer.size());
  if (::fsync(fd_) != 0) fail("fsync failed", errno);
  int fd = std::exchange(fd_, -1);
  // close() can report deferred write errors (NFS, quota).
  if (::close(fd) != 0) fail("close failed", errno);
  if (::rename(tmp_path_.c_str(), path_.c_str()) != 0) fail("rename failed", errno);
  finished_ = true;
  // The rename is durable only once the directory entry is.
  std::string dir = dir_of(path_);
  int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) fail("cannot open directory for fsync", errno);
  int rc = ::fsync(dfd);
  int err = errno;
  ::close(dfd);
  // Some file systems cannot fsync a directory; they report EINVAL.
  if (rc != 0 && err != EINVAL) fail("fsync of directory failed", err);
}

// ---- MappedFile ------------------------------------------------------------

MappedFile::MappedFile(const std::string& path, FileKind kind) : path_(path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IndexError(path, "cannot open: " + errno_text(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    throw IndexError(path, "cannot stat: " + errno_text(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IndexError(path, "not a regular file");
  }
  size_ = static_cast<uint64_t>(st.st_size);
  if (size_ < kFileHeaderSize + kFileFooterSize) {
    ::close(fd);
    throw IndexError(path, "truncated: file is " + std::to_string(size_) + " bytes, header and footer need " +
                     std::to_string(kFileHeaderSize + kFileFooterSize));
  }
  void* m = ::mmap(nullptr, size_, PROT_READ, MAP_SHARED, fd, 0);
  int err = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (m == MAP_FAILED) throw IndexError(path, "mmap failed: " + errno_text(err));
  base_ = static_cast<const uint8_t*>(m);
  // No readahead advice: the kernel's default suits both the sequential
  // scans of merging and checking and the hot, cached pages of searching.
  try {
    validate(kind);
  } catch (...) {
    unmap();
    throw;
  }
}

void MappedFile::validate(FileKind kind) {
  if (std::memcmp(base_, kMagic, 4) != 0) throw_corrupt(path_, 0, "bad magic: not an fts index file");
  uint32_t actual_kind = load_u32(base_ + 4);
  if (actual_kind != static_cast<uint32_t>(kind)) {
    throw IndexError(path_, std::string("not a ") + file_kind_name(kind) + " file (it is a " +
                     file_kind_name(static_cast<FileKind>(actual_kind)) + " file, kind " +
                     std::to_string(actual_kind) + ")");
  }
  uint32_t version = load_u32(base_ + 8);
  if (version < kOldestReadableVersion || version > kFormatVersion) {
    throw IndexError(path_, "unsupported format version " + std::to_string(version) + " (this fts reads " +
                     std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) + ")");
  }
  version_ = version;
  if (load_u32(base_ + 12) != 0) throw_corrupt(path_, 12, "reserved header field is not zero");
  const uint8_t* footer = base_ + size_ - kFileFooterSize;
  if (std::memcmp(footer + 12, kEndMagic, 4) != 0) {
    throw IndexError(path_, "truncated or damaged: no end marker in the last 4 of its " + std::to_string(size_) +
                     " bytes");
  }
  uint64_t payload_len = load_u64(footer);
  uint64_t actual = size_ - kFileHeaderSize - kFileFooterSize;
  if (payload_len != actual) {
    throw IndexError(path_, "truncated: footer records a payload of " + std::to_string(payload_len) +
                     " bytes, the file holds " + std::to_string(actual));
  }
  stored_crc_ = load_u32(footer + 8);
  payload_ = std::span<const uint8_t>(base_ + kFileHeaderSize, actual);
}

void MappedFile::verify_checksum() const {
  if (base_ == nullptr) return;
  uint32_t computed = crc32c(0, base_, kFileHeaderSize + payload_.size());
  if (computed != stored_crc_) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (stored %08x, computed %08x)", stored_crc_, computed);
    throw IndexError(path_, std::string("checksum mismatch") + buf);
  }
}

void MappedFile::unmap() noexcept {
  if (base_ != nullptr) ::munmap(const_cast<uint8_t*>(base_), size_);
  base_ = nullptr;
  size_ = 0;
  payload_ = {};
}

void MappedFile::release_pages() const noexcept {
  // Advice only: on failure the pages simply stay mapped.
  if (base_ != nullptr) ::madvise(const_cast<uint8_t*>(base_), size_, MADV_DONTNEED);
}

MappedFile::~MappedFile() { unmap(); }

MappedFile::MappedFile(MappedFile&& o) noexcept
    : path_(std::move(o.path_)),
      base_(std::exchange(o.base_, nullptr)),
      size_(std::exchange(o.size_, 0)),
      payload_(std::exchange(o.payload_, {})),
      stored_crc_(o.stored_crc_),
      version_(o.version_) {}

MappedFile& MappedFile::operator=(MappedFile&& o) noexcept {
  if (this != &o) {
    unmap();
    path_ = std::move(o.path_);
    base_ = std::exchange(o.base_, nullptr);
    size_ = std::exchange(o.size_, 0);
    payload_ = std::exchange(o.payload_, {});
    stored_crc_ = o.stored_crc_;
    version_ = o.version_;
  }
  return *this;
}

}  // namespace fts
