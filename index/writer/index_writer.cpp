#include "index/writer/index_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>

#include "analyzer/analyzer.h"
#include "base/api_boundary.h"
#include "index/format/file_format.h"
#include "index/format/manifest.h"
#include "index/format/segment_files.h"
#include "index/writer/segment_writer.h"

namespace fts {

namespace {

constexpr size_t kBatchDocs = 256;
constexpr size_t kQueueBatches = 4;
constexpr size_t kMinRamMb = 16;

// Documents analyzed by the adding thread, handed to the inverting thread.
// Terms live back to back in pool; ends[i] is where term i ends.
struct Batch {
  std::string pool;
  std::vector<uint32_t> ends;
  std::vector<uint32_t> title_counts, abstract_counts;
  std::vector<Document> docs;
};

// Holds an exclusive lock on DIR/LOCK so two builds never write one index.
class DirLock {
 public:
  explicit DirLock(const std::string& dir) {
    std::string path = dir + "/LOCK";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw IoError(path, std::string("cannot open: ") + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw LockError(dir, "another process is building this index");
    }
  }
  ~DirLock() { ::close(fd_); }

 private:
  int fd_ = -1;
};

void create_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw IoError(dir, "cannot create directory: " + ec.message());
}

// The manifest a build replaces. A damaged one must not block rebuilding the
// index in place: the new generation then goes past every segment file name
// present, so nothing new collides with what is there.
Manifest previous_manifest(const std::string& dir) {
  if (!manifest_exists(dir)) return {};
  try {
    return read_manifest(dir);
  } catch (const IndexError&) {
    Manifest m;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      if (!name.starts_with("seg-")) continue;
      m.generation = std::max<uint64_t>(m.generation, std::strtoull(name.c_str() + 4, nullptr, 10));
    }
    return m;
  }
}

}  // namespace

struct FTS_LOCAL IndexWriter::Impl {
  std::string dir;
  IndexWriterOptions options;
  DirLock lock;
  Manifest previous;
  Analyzer analyzer;
  uint64_t docs_added = 0;

  Batch filling;
  // Inverting side (its own thread when options.threads > 1).
  std::unique_ptr<SegmentWriter> segment;
  std::vector<SegmentInfo> flushed;
  uint64_t next_segment = 0;
  uint64_t terms = 0;

  std::thread worker;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Batch> queue;
  bool closing = false;
  std::exception_ptr error;

  Impl(std::string d, IndexWriterOptions o)
      : dir((create_dir(d), std::move(d))),
        options(std::move(o)),
        lock(dir),
        previous(previous_manifest(dir)),
        analyzer(options.stopwords) {
    if (options.threads > 1) worker = std::thread([this] { run_worker(); });
  }

  ~Impl() { stop_worker(); }

  std::string segment_name() {
    return "seg-" + std::to_string(previous.generation + 1) + "-" + std::to_string(next_segment++);
  }

  // Below 16 MB segments get too small to be worth their files.
  size_t budget_bytes() const { return std::max<size_t>(options.ram_mb, kMinRamMb) << 20; }

  void analyze_into(Batch& b, Document&& doc) {
    uint32_t before = static_cast<uint32_t>(b.ends.size());
    auto emit = [&](std::string_view term) {
      b.pool.append(term);
      b.ends.push_back(static_cast<uint32_t>(b.pool.size()));
    };
    analyzer.for_each_term(doc.title, emit);
    b.title_counts.push_back(static_cast<uint32_t>(b.ends.size()) - before);
    analyzer.for_each_term(doc.abstract, emit);
    b.abstract_counts.push_back(static_cast<uint32_t>(b.ends.size()) - before - b.title_counts.back());
    b.docs.push_back(std::move(doc));
  }

  void invert(Batch& b) {
    AnalyzedDoc ad;
    size_t term = 0;
    auto view = [&](size_t i) {
      uint32_t start = i == 0 ? 0 : b.ends[i - 1];
      return std::string_view(b.pool.data() + start, b.ends[i] - start);
    };
    for (size_t d = 0; d < b.docs.size(); ++d) {
      ad.title_terms.clear();
      ad.abstract_terms.clear();
      for (uint32_t k = 0; k < b.title_counts[d]; ++k) ad.title_terms.push_back(view(term++));
      for (uint32_t k = 0; k < b.abstract_counts[d]; ++k) ad.abstract_terms.push_back(view(term++));
      ad.title = std::move(b.docs[d].title);
      ad.url = std::move(b.docs[d].url);
      ad.abstract = std::move(b.docs[d].abstract);
      if (!segment) segment = std::make_unique<SegmentWriter>(dir, segment_name());
      segment->add(ad);
      if (segment->memory_bytes() >= budget_bytes() ||
          (options.max_segment_docs && segment->doc_count() >= options.max_segment_docs)) {
        flush();
      }
    }
  }

  void flush() {
    if (!segment) return;
    terms = segment->term_count();
    flushed.push_back(segment->finish());
    segment.reset();
  }

  void run_worker() {
    for (;;) {
      Batch b;
      {
        std::unique_lock lk(mu);
        cv.wait(lk, [&] { return !queue.empty() || closing; });
        if (queue.empty()) return;
        b = std::move(queue.front());
        queue.pop_front();
      }
      cv.notify_all();
      try {
        if (!error) invert(b);
      } catch (...) {
        std::lock_guard lk(mu);
        error = std::current_exception();
      }
    }
  }

  void submit(Batch&& b) {
    if (!worker.joinable()) {
      invert(b);
      return;
    }
    std::unique_lock lk(mu);
    cv.wait(lk, [&] { return queue.size() < kQueueBatches || error; });
    if (error) std::rethrow_exception(error);
    queue.push_back(std::move(b));
    cv.notify_all();
  }

  void stop_worker() {
    if (!worker.joinable()) return;
    {
      std::lock_guard lk(mu);
      closing = true;
    }
    cv.notify_all();
    worker.join();
  }

  void remove_unreferenced(const Manifest& live) {
    std::vector<std::string> keep;
    for (const auto& s : live.segments) {
      for (const char* ext : kSegmentExtensions) keep.push_back(s.name + "." + ext);
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      bool ours = name.starts_with("seg-") || name.ends_with(".tmp");
      if (ours && std::find(keep.begin(), keep.end(), name) == keep.end()) {
        std::filesystem::remove(entry.path(), ec);
      }
    }
  }

  BuildStats commit() {
    if (!filling.docs.empty()) submit(std::move(filling));
    filling = Batch{};
    stop_worker();
    if (error) std::rethrow_exception(error);
    flush();

    Manifest next;
    next.generation = previous.generation + 1;
    next.stopwords = options.stopwords.words();
    BuildStats stats;
    if (options.merge && flushed.size() > 1) {
      std::vector<std::shared_ptr<const SegmentReader>> inputs;
      for (const auto& s : flushed) inputs.push_back(SegmentReader::open(dir, s.name));
      SegmentInfo merged = merge_segments(dir, inputs, segment_name());
      inputs.clear();
      next.segments.push_back(merged);
    } else {
      next.segments = flushed;
    }
    stats.segments = next.segments.size();
    write_manifest(dir, next);
    remove_unreferenced(next);
    previous = next;
    flushed.clear();

    stats.docs = docs_added;
    for (const auto& s : next.segments) {
      auto reader = SegmentReader::open(dir, s.name);
      // Distinct terms: every term has exactly one kAny key.
      const std::string any_prefix(1, static_cast<char>(Field::kAny));
      reader->terms().for_each_prefix(any_prefix, [&](std::string_view, const TermInfo&) { ++stats.terms; });
      for (const char* ext : kSegmentExtensions) {
        stats.index_bytes += std::filesystem::file_size(segment_file(dir, s.name, ext));
      }
    }
    stats.index_bytes += std::filesystem::file_size(manifest_path(dir));
    return stats;
  }
};

namespace {
IndexWriterOptions validated(IndexWriterOptions options) {
  if (options.ram_mb == 0) throw ArgumentError("IndexWriterOptions::ram_mb", "must be positive");
  if (options.threads == 0) throw ArgumentError("IndexWriterOptions::threads", "must be at least 1");
  return options;
}
}  // namespace

IndexWriter::IndexWriter(std::string dir, IndexWriterOptions options)
    : impl_(at_api_boundary(dir, [&] { return std::make_unique<Impl>(dir, validated(std::move(options))); })) {}

IndexWriter::~IndexWriter() = default;

void IndexWriter::add(Document doc) {
  at_api_boundary(impl_->dir, [&] {
    if (impl_->docs_added >= kNoMoreDocs - 1) throw IndexError(impl_->dir, "too many documents for one index");
    impl_->analyze_into(impl_->filling, std::move(doc));
    ++impl_->docs_added;
    if (impl_->filling.docs.size() >= kBatchDocs) {
      impl_->submit(std::move(impl_->filling));
      impl_->filling = Batch{};
    }
  });
}

uint64_t IndexWriter::docs_added() const { return impl_->docs_added; }

BuildStats IndexWriter::commit() {
  return at_api_boundary(impl_->dir, [&] { return impl_->commit(); });
}

}  // namespace fts
