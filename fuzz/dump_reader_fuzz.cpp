// Fuzzes the streaming dump reader with any bytes. The first byte picks the
// options: bit 0 strict, bit 1 gzip the rest first (so mutations reach the
// XML behind a valid gzip stream), bit 2 a tiny max_doc_bytes (the
// oversized-doc path). Reading must end normally or with DumpError; anything
// else (another exception, a crash, a leak) is a bug.
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "dump/dump_reader.h"

namespace {

std::string gzip(std::string_view in) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) std::abort();
  std::string out(deflateBound(&z, in.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) std::abort();
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

// The dump lives in a memfd, read through /proc/self/fd: no disk I/O.
int dump_fd() {
  static const int fd = memfd_create("fts-fuzz-dump", 0);
  if (fd < 0) std::abort();
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const unsigned flags = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data + 1), size - 1);
  std::string bytes = flags & 2 ? gzip(rest) : std::string(rest);

  const int fd = dump_fd();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, bytes.data(), bytes.size(), 0) != static_cast<ssize_t>(bytes.size()))
    std::abort();

  fts::DumpReader::Options options;
  options.strict = flags & 1;
  if (flags & 4) options.max_doc_bytes = 64;
  uint64_t warnings = 0;
  options.warn = [&](const std::string& message) {
    if (message.empty() || message.find('\n') != std::string::npos)
      fts::fuzz::invariant_failed("warning is not one line: " + message, rest);
    ++warnings;
  };
  try {
    fts::DumpReader reader("/proc/self/fd/" + std::to_string(fd), options);
    fts::Document doc;
    uint64_t docs = 0, last_offset = 0;
    while (reader.next(doc)) {
      if (docs > 0 && doc.byte_offset <= last_offset)
        fts::fuzz::invariant_failed("doc byte offsets not increasing", rest);
      last_offset = doc.byte_offset;
      ++docs;
    }
    if (reader.docs_skipped() != warnings) fts::fuzz::invariant_failed("skipped docs != warnings", rest);
    if (options.strict && reader.docs_skipped() != 0) fts::fuzz::invariant_failed("strict reader skipped a doc", rest);
  } catch (const fts::DumpError& e) {
    const std::string message = e.what();
    if (message.empty() || message.find('\n') != std::string::npos)
      fts::fuzz::invariant_failed("DumpError is not one line: " + message, rest);
  }
  return 0;
}
