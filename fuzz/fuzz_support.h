// Small helpers shared by the fuzz targets: a temporary directory removed at
// exit, a failed-invariant report that libFuzzer records as a crash, and the
// seed-writing hook (FTS_FUZZ_WRITE_SEEDS=DIR makes a target write its own
// seeds there at startup, for corpora that only the target can make).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace fts::fuzz {

// Prints what broke and aborts: libFuzzer saves the input as a crash.
[[noreturn]] inline void invariant_failed(const std::string& what, std::string_view input) {
  std::fprintf(stderr, "fuzz invariant failed: %s\ninput (%zu bytes): %.*s\n", what.c_str(), input.size(),
               static_cast<int>(input.size() < 400 ? input.size() : 400), input.data());
  std::abort();
}

// mkdtemp under TMPDIR (or /tmp); removed by an atexit handler.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/fts-fuzz-XXXXXX";
    if (!mkdtemp(pattern.data())) {
      std::perror("mkdtemp");
      std::exit(1);
    }
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return std::filesystem::path(pattern);
  }();
  return dir;
}

inline void write_bytes(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

inline std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The directory named by FTS_FUZZ_WRITE_SEEDS, or "" when unset.
inline std::string seed_output_dir() {
  const char* dir = std::getenv("FTS_FUZZ_WRITE_SEEDS");
  return dir ? dir : "";
}

}  // namespace fts::fuzz
