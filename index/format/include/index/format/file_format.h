// Framing shared by every index file: a header (magic, kind, format version),
// the payload, and a footer (payload length, CRC-32C of header + payload, end
// magic). Files are written to a temporary name, fsynced and renamed into
// place; they are read through read-only memory maps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "fts/errors.h"
#include "util/crc32c.h"

namespace fts {

// 2: term dictionary entries omit total_freq when it equals doc_freq.
// 3 added impacts to the postings' skip data, 4 each field's shortest
// length to the norms' header and the block prefixes to the term
// dictionary (opening a segment made both from the whole file before), 5 a
// byte column of each doc's kAny length to the norms (index/format/norms.h),
// 6 the Bloom filters' blocked layout (a layout field, so older filters are
// still read; the bump makes an older fts refuse the index by its version)
// and bit-packed tails to the postings, 7 a table of the long docs' kAny
// lengths to the norms.
inline constexpr uint32_t kFormatVersion = 7;  // written
inline constexpr uint32_t kOldestReadableVersion = 2;

// On-disk layout: header = magic "FTS\0", u32 kind, u32 version, u32 zero
// (16 bytes, so payloads start 16-byte aligned in the mapping); footer =
// u64 payload length, u32 CRC-32C of header + payload, end magic "\0STF".
inline constexpr size_t kFileHeaderSize = 16;
inline constexpr size_t kFileFooterSize = 16;

// What a file holds, written after the magic so a file cannot be mistaken
// for another kind.
enum class FileKind : uint32_t {
  kManifest = 1,
  kPostings = 2,
  kPositions = 3,
  kTermDict = 4,
  kDocStore = 5,
  kNorms = 6,
  kLiveDocs = 7,
  kDocIds = 8,
  kBloom = 9,
  kUrls = 10,
  kFingerprints = 11,
  kClusterIds = 12,
  kShards = 13,
};
const char* file_kind_name(FileKind kind);

// Destination of a writer's bytes: a file or memory.
class Sink {
 public:
  virtual ~Sink() = default;
  virtual void write(const void* data, size_t size) = 0;
  // Payload bytes written so far (offsets stored in the index are relative
  // to the payload start).
  virtual uint64_t offset() const = 0;
};

class VectorSink : public Sink {
 public:
  void write(const void* data, size_t size) override;
  uint64_t offset() const override { return bytes.size(); }
  std::string bytes;
};

// Writes path + ".tmp", then on finish(): footer, fsync, rename to path.
// Destroyed without finish(), it removes the temporary file. Throws
// IoError on I/O failure (full disk included) with the path.
class FileWriter : public Sink {
 public:
  FileWriter(std::string path, FileKind kind);
  ~FileWriter() override;
  FileWriter(const FileWriter&) = delete;
  FileWriter& operator=(const FileWriter&) = delete;
  void write(const void* data, size_t size) override;
  uint64_t offset() const override { return payload_size_; }
  void finish();
  const std::string& path() const { return path_; }

 private:
  void flush_buffer();
  void write_fully(const void* data, size_t size);  // retries EINTR and short writes
  [[noreturn]] void fail(const char* what, int err);
  std::string path_, tmp_path_;
  int fd_ = -1;
  uint64_t payload_size_ = 0;
  uint32_t crc_ = 0;
  std::string buffer_;
  bool finished_ = false;  // renamed into place: nothing left to clean up
};

// A read-only memory map of one index file whose header and footer were
// validated (magic, kind, version, length). Checksums are verified by
// verify_checksum(), which `fts-index check` runs on every file.
class MappedFile {
 public:
  MappedFile() = default;
  MappedFile(const std::string& path, FileKind kind);  // throws IndexError
  ~MappedFile();
  MappedFile(MappedFile&&) noexcept;
  MappedFile& operator=(MappedFile&&) noexcept;

  std::span<const uint8_t> payload() const { return payload_; }
  uint32_t version() const { return version_; }
  const std::string& path() const { return path_; }
  uint64_t file_size() const { return size_; }
  void verify_checksum() const;  // throws IndexError
  // Drops this process's mappings of all the file's pages (they stay in the
  // page cache; a later read faults them back in). A pass over a whole
  // file, as a merge makes, otherwise holds every page it touched in its
  // resident set.
  void release_pages() const noexcept;

 private:
  std::string path_;
  const uint8_t* base_ = nullptr;
  uint64_t size_ = 0;
  std::span<const uint8_t> payload_;
  uint32_t stored_crc_ = 0;
  uint32_t version_ = 0;

  void validate(FileKind kind);
  void unmap() noexcept;
};


// Throws IndexError("path: offset N: what"). Readers of a payload report
// offsets relative to the payload start.
[[noreturn]] void throw_corrupt(const std::string& path, uint64_t offset, const std::string& what);

}  // namespace fts
