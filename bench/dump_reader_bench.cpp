// Reader throughput in MB/s of uncompressed XML on gcide (126k docs, 49 MB):
// plain-file reading (gcide decompressed once into a temp file) and gzip
// reading, which adds inflate. Rates use CPU time: the reader is single-threaded
// and the shared build machine is often overloaded, which inflates wall time.
#include <benchmark/benchmark.h>
#include <unistd.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "dump/dump_reader.h"

namespace {

std::string gcide_gz() {
  const char* env = std::getenv("FTS_SHARED_DIR");
  std::filesystem::path root = env ? env : std::filesystem::path(FTS_SOURCE_DIR) / ".." / "shared";
  std::filesystem::path p = root / "corpus" / "gcide.xml.gz";
  return std::filesystem::exists(p) ? p.string() : "";
}

// gcide decompressed once per process, removed at exit.
class PlainCopy {
 public:
  PlainCopy() {
    std::string gz = gcide_gz();
    if (gz.empty()) return;
    path_ = (std::filesystem::temp_directory_path() / ("fts-bench-gcide-" + std::to_string(getpid()) + ".xml")).string();
    gzFile in = gzopen(gz.c_str(), "rb");
    std::ofstream out(path_, std::ios::binary);
    char buf[1 << 16];
    for (int n; in && (n = gzread(in, buf, sizeof buf)) > 0;) out.write(buf, n);
    if (in) gzclose(in);
  }
  ~PlainCopy() {
    if (!path_.empty()) std::remove(path_.c_str());
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

const std::string& plain_gcide() {
  static PlainCopy copy;
  return copy.path();
}

void read_dump(benchmark::State& state, const std::string& path) {
  if (path.empty()) {
    state.SkipWithError("../shared/corpus/gcide.xml.gz not found");
    return;
  }
  uint64_t bytes = 0, docs = 0;
  fts::Document doc;
  for (auto _ : state) {
    fts::DumpReader reader(path, {});
    while (reader.next(doc)) {
      ++docs;
      benchmark::DoNotOptimize(doc.abstract.data());
    }
    bytes += reader.xml_bytes_read();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["docs/s"] = benchmark::Counter(static_cast<double>(docs), benchmark::Counter::kIsRate);
}

void BM_ReadPlainGcide(benchmark::State& state) { read_dump(state, plain_gcide()); }
void BM_ReadGzipGcide(benchmark::State& state) { read_dump(state, gcide_gz()); }

BENCHMARK(BM_ReadPlainGcide)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ReadGzipGcide)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
