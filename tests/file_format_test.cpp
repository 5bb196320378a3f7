// File framing: round trip, damage detection, write failures, CRC-32C.
#include "index/format/file_format.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <functional>
#include <filesystem>
#include <random>
#include <string>

#include "support/test_support.h"

namespace fts {
namespace {

using test::read_file;
using test::TempDir;
using test::write_file;
using namespace std::string_literals;

std::string make_file(const std::string& path, FileKind kind, const std::string& payload) {
  FileWriter w(path, kind);
  // Uneven pieces exercise the buffer's edges.
  for (size_t i = 0; i < payload.size();) {
    size_t n = std::min<size_t>(payload.size() - i, 1 + i % 7);
    w.write(payload.data() + i, n);
    i += n;
  }
  EXPECT_EQ(w.offset(), payload.size());
  w.finish();
  return read_file(path);
}

std::string payload_of(const MappedFile& f) {
  return std::string(reinterpret_cast<const char*>(f.payload().data()), f.payload().size());
}

std::string error_of(const std::function<void()>& fn) {
  try {
    fn();
  } catch (const Error& e) {  // IndexError for damage, IoError for a refused write
    return e.what();
  }
  return "";
}

TEST(Crc32c, KnownVectorBothImplementations) {
  EXPECT_EQ(detail::crc32c_portable(0, "123456789", 9), 0xE3069283u);
  EXPECT_EQ(crc32c(0, "123456789", 9), 0xE3069283u);
  if (detail::crc32c_hardware_available()) {
    EXPECT_EQ(detail::crc32c_hardware(0, "123456789", 9), 0xE3069283u);
  }
}

// Lengths around the hardware path's 3 x 4,096-byte stripes too.
TEST(Crc32c, ImplementationsAgreeAndChain) {
  std::mt19937 rng(7);
  std::string data(60000, '\0');
  for (auto& c : data) c = static_cast<char>(rng());
  for (size_t start : {0, 1, 3, 8}) {
    for (size_t len : {0, 1, 7, 8, 9, 63, 64, 65, 1000, 4000, 12287, 12288, 12289, 12295, 24576, 30001, 59990}) {
      const char* p = data.data() + start;
      uint32_t sw = detail::crc32c_portable(0, p, len);
      if (detail::crc32c_hardware_available()) {
        EXPECT_EQ(detail::crc32c_hardware(0, p, len), sw);
      }
      EXPECT_EQ(crc32c(0, p, len), sw);
      size_t half = len / 3;
      EXPECT_EQ(crc32c(crc32c(0, p, half), p + half, len - half), sw);
      EXPECT_EQ(detail::crc32c_portable(detail::crc32c_portable(0, p, half), p + half, len - half), sw);
    }
  }
}

TEST(FileFormat, RoundTrip) {
  TempDir dir;
  std::string path = dir.str("a.dict");
  std::string payload = "hello\0world"s + std::string(3'000'000, 'x');  // crosses the write buffer
  make_file(path, FileKind::kTermDict, payload);
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  MappedFile f(path, FileKind::kTermDict);
  EXPECT_EQ(payload_of(f), payload);
  EXPECT_EQ(f.file_size(), payload.size() + kFileHeaderSize + kFileFooterSize);
  EXPECT_EQ(f.path(), path);
  EXPECT_NO_THROW(f.verify_checksum());
  // Payloads start aligned for readers that view them as arrays.
  EXPECT_EQ(reinterpret_cast<uintptr_t>(f.payload().data()) % 16, 0u);

  MappedFile moved(std::move(f));
  EXPECT_EQ(payload_of(moved), payload);
  MappedFile assigned;
  assigned = std::move(moved);
  EXPECT_EQ(payload_of(assigned), payload);
}

TEST(FileFormat, LargeSingleWrite) {
  TempDir dir;
  std::string payload(5'000'000, 'q');
  payload[4'999'999] = 'z';
  FileWriter w(dir.str("big"), FileKind::kDocStore);
  w.write("ab", 2);
  w.write(payload.data(), payload.size());
  w.finish();
  MappedFile f(dir.str("big"), FileKind::kDocStore);
  EXPECT_EQ(payload_of(f), "ab" + payload);
  EXPECT_NO_THROW(f.verify_checksum());
}

TEST(FileFormat, EmptyPayload) {
  TempDir dir;
  make_file(dir.str("e"), FileKind::kNorms, "");
  MappedFile f(dir.str("e"), FileKind::kNorms);
  EXPECT_EQ(f.payload().size(), 0u);
  EXPECT_NO_THROW(f.verify_checksum());
}

TEST(FileFormat, VectorSink) {
  VectorSink s;
  s.write("ab", 2);
  s.write("", 0);
  s.write("c", 1);
  EXPECT_EQ(s.bytes, "abc");
  EXPECT_EQ(s.offset(), 3u);
}

TEST(FileFormat, EveryTruncationIsAnError) {
  TempDir dir;
  std::string path = dir.str("t");
  const std::string payload = "some postings bytes to cut";
  std::string whole = make_file(path, FileKind::kPostings, payload);
  for (size_t len = 0; len < whole.size(); ++len) {
    write_file(path, whole.substr(0, len));
    std::string err = error_of([&] { MappedFile f(path, FileKind::kPostings); });
    EXPECT_NE(err, "") << "truncated to " << len;
    EXPECT_EQ(err.rfind(path + ": ", 0), 0u) << err;
  }
  // Cut inside the payload, the sizes are named.
  write_file(path, whole.substr(0, 20) + whole.substr(whole.size() - kFileFooterSize));
  std::string err = error_of([&] { MappedFile f(path, FileKind::kPostings); });
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  EXPECT_NE(err.find(std::to_string(payload.size()) + " bytes"), std::string::npos) << err;
}

TEST(FileFormat, EveryByteFlipIsCaught) {
  TempDir dir;
  std::string path = dir.str("f");
  std::string whole = make_file(path, FileKind::kPositions, "payload with a few bytes");
  for (size_t i = 0; i < whole.size(); ++i) {
    for (uint8_t mask : {0x01, 0x80, 0xff}) {
      std::string damaged = whole;
      damaged[i] = static_cast<char>(damaged[i] ^ mask);
      write_file(path, damaged);
      std::string err = error_of([&] {
        MappedFile f(path, FileKind::kPositions);
        f.verify_checksum();
      });
      EXPECT_NE(err, "") << "flip at " << i;
      bool in_header_or_footer = i < kFileHeaderSize || i >= whole.size() - kFileFooterSize;
      bool crc_field = i >= whole.size() - 8 && i < whole.size() - 4;
      // A version flipped to an older one this build still reads opens; its
      // checksum catches it (above).
      const auto version = static_cast<uint8_t>(damaged[8]);
      bool readable_version = i == 8 && version >= kOldestReadableVersion && version <= kFormatVersion;
      if (in_header_or_footer && !crc_field && !readable_version) {
        EXPECT_NE(error_of([&] { MappedFile f(path, FileKind::kPositions); }), "") << "flip at " << i;
      }
      if (!in_header_or_footer) {
        EXPECT_NE(err.find("checksum mismatch"), std::string::npos) << err;
      }
    }
  }
}

TEST(FileFormat, WrongKind) {
  TempDir dir;
  make_file(dir.str("k"), FileKind::kPostings, "x");
  std::string err = error_of([&] { MappedFile f(dir.str("k"), FileKind::kTermDict); });
  EXPECT_NE(err.find(dir.str("k") + ": not a term dictionary file"), std::string::npos) << err;
}

TEST(FileFormat, WrongVersion) {
  TempDir dir;
  std::string whole = make_file(dir.str("v"), FileKind::kNorms, "xyz");
  whole[8] = static_cast<char>(kFormatVersion + 1);
  write_file(dir.str("v"), whole);
  std::string err = error_of([&] { MappedFile f(dir.str("v"), FileKind::kNorms); });
  std::string expected = "unsupported format version " + std::to_string(kFormatVersion + 1) + " (this fts reads " +
                         std::to_string(kOldestReadableVersion) + " to " + std::to_string(kFormatVersion) + ")";
  EXPECT_NE(err.find(expected), std::string::npos) << err;
}

TEST(FileFormat, NotAnIndexFile) {
  TempDir dir;
  write_file(dir.str("n"), std::string(100, 'z'));
  EXPECT_NE(error_of([&] { MappedFile f(dir.str("n"), FileKind::kNorms); }).find("bad magic"), std::string::npos);
}

TEST(FileFormat, MissingFile) {
  TempDir dir;
  std::string err = error_of([&] { MappedFile f(dir.str("nope"), FileKind::kManifest); });
  EXPECT_EQ(err, dir.str("nope") + ": cannot open: No such file or directory");
}

TEST(FileFormat, UnfinishedWriterLeavesNothing) {
  TempDir dir;
  {
    FileWriter w(dir.str("u"), FileKind::kDocStore);
    w.write("abc", 3);
    EXPECT_TRUE(std::filesystem::exists(dir.str("u.tmp")));
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(FileFormat, FinishReplacesAnOldFile) {
  TempDir dir;
  make_file(dir.str("r"), FileKind::kManifest, "old");
  make_file(dir.str("r"), FileKind::kManifest, "new!");
  EXPECT_EQ(payload_of(MappedFile(dir.str("r"), FileKind::kManifest)), "new!");
}

TEST(FileFormat, MissingDirectory) {
  TempDir dir;
  std::string err = error_of([&] { FileWriter w(dir.str("missing/x"), FileKind::kNorms); });
  EXPECT_NE(err.find(dir.str("missing/x")), std::string::npos) << err;
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
}

// Runs fn in a forked child and returns what it wrote to the pipe; the
// child's process state (limits, user id) does not leak into the test.
std::string in_child(const std::function<std::string()>& fn) {
  int pipefd[2];
  if (pipe(pipefd) != 0) return "pipe failed";
  pid_t pid = fork();
  if (pid < 0) return "fork failed";
  if (pid == 0) {
    close(pipefd[0]);
    std::string msg;
    try {
      msg = fn();
    } catch (const std::exception& e) {
      msg = std::string("unexpected: ") + e.what();
    }
    (void)!write(pipefd[1], msg.data(), msg.size());
    _exit(0);
  }
  close(pipefd[1]);
  std::string msg;
  char buf[512];
  ssize_t n;
  while ((n = read(pipefd[0], buf, sizeof buf)) > 0) msg.append(buf, static_cast<size_t>(n));
  close(pipefd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status)) msg += "\nchild died with signal " + std::to_string(WTERMSIG(status));
  return msg;
}

TEST(FileFormat, ReadOnlyDirectory) {
  TempDir dir;
  std::string ro = dir.str("ro");
  std::filesystem::create_directory(ro);
  chmod(ro.c_str(), 0555);
  chmod(dir.str().c_str(), 0755);
  std::string msg = in_child([&] {
    // Root ignores permissions: become nobody first.
    if (geteuid() == 0 && setuid(65534) != 0) return std::string("setuid failed");
    return error_of([&] { FileWriter w(ro + "/x", FileKind::kNorms); });
  });
  chmod(ro.c_str(), 0755);
  EXPECT_NE(msg.find(ro + "/x"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Permission denied"), std::string::npos) << msg;
}

TEST(FileFormat, ReadOnlyDirectoryEvenForRoot) {
  // /proc refuses file creation to everyone, root included.
  std::string err = error_of([&] { FileWriter w("/proc/fts-test-file", FileKind::kNorms); });
  EXPECT_NE(err.find("/proc/fts-test-file"), std::string::npos) << err;
}

// A file size limit makes writes fail with EFBIG (SIGXFSZ ignored, as the
// tools do); the error names the path. Run in a child so the limit stays there.
TEST(FileFormat, FileSizeLimitIsReported) {
  TempDir dir;
  std::string path = dir.str("limited");
  std::string msg = in_child([&] {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {100'000, 100'000};
    setrlimit(RLIMIT_FSIZE, &lim);
    std::string err = error_of([&] {
      FileWriter w(path, FileKind::kPostings);
      std::string chunk(64 * 1024, 'p');
      for (int i = 0; i < 100; ++i) w.write(chunk.data(), chunk.size());
      w.finish();
    });
    bool left = access((path + ".tmp").c_str(), F_OK) == 0 || access(path.c_str(), F_OK) == 0;
    return err + (left ? "\nleft files behind" : "\nclean");
  });
  EXPECT_NE(msg.find(path + ": write failed: File too large"), std::string::npos) << msg;
  EXPECT_NE(msg.find("\nclean"), std::string::npos) << msg;
}

TEST(FileFormat, KindNames) {
  EXPECT_STREQ(file_kind_name(FileKind::kTermDict), "term dictionary");
  EXPECT_STREQ(file_kind_name(FileKind::kDocStore), "doc store");
  EXPECT_STREQ(file_kind_name(static_cast<FileKind>(99)), "unknown");
}

TEST(FileFormat, ThrowCorruptFormat) {
  EXPECT_EQ(error_of([] { throw_corrupt("x/y.dict", 42, "bad entry"); }), "x/y.dict: offset 42: bad entry");
}

}  // namespace
}  // namespace fts
