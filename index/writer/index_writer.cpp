#include "index/writer/index_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "analyzer/analyzer.h"
#include "base/api_boundary.h"
#include "index/format/file_format.h"
#include "index/format/doc_id_map.h"
#include "index/format/live_docs.h"
#include "index/format/manifest.h"
#include "index/format/segment_files.h"
#include "index/format/shard_manifest.h"
#include "index/format/word_pairs.h"
#include "index/reader/index_reader.h"
#include "index/writer/cluster_assigner.h"
#include "index/writer/segment_writer.h"
#include "index/writer/simhash.h"

namespace fts {

namespace {

constexpr size_t kMinRamMb = 16;
constexpr size_t kAnalyzedChunkBytes = 256 << 10;
// Merges of fewer docs keep their postings on one thread: a second one
// costs a thread and two spill files, for a merge of a few milliseconds.
constexpr uint64_t kParallelMergeDocs = 50000;

// Documents given to add(), in id order, inverted whole by one worker into
// segments of its own. A chunk's docs have consecutive ids, so every
// segment does too, whichever worker builds it and in whatever order the
// workers finish.
// Analyzed docs: their terms back to back in pool, ends[i] where term i
// ends and numbers[i] its number (Analyzer::for_each_numbered_term), per
// doc its title's then its abstract's term count and the numbering its
// numbers belong to (0: none, when the numbering started over within the
// doc), and, with a hasher, its SimHash fingerprint. The fingerprint is
// taken where the doc is analyzed: with two threads the inverting one is
// the slower, and fingerprints there took a sixth of its time.
struct AnalyzedTerms {
  std::string pool;
  std::vector<uint32_t> ends, numbers, counts;
  std::vector<uint64_t> numberings, fingerprints;

  void add(Analyzer& words, const Document& doc, SimHasher* hasher) {
    auto emit = [&](std::string_view term, uint32_t number) {
      pool.append(term);
      ends.push_back(static_cast<uint32_t>(pool.size()));
      numbers.push_back(number);
    };
    const uint64_t numbering = words.term_numbering();
    const size_t before = ends.size();
    words.for_each_numbered_term(doc.title, emit);
    const size_t title = ends.size() - before;
    counts.push_back(static_cast<uint32_t>(title));
    words.for_each_numbered_term(doc.abstract, emit);
    counts.push_back(static_cast<uint32_t>(ends.size() - before - title));
    numberings.push_back(words.term_numbering() == numbering ? numbering : 0);
    if (hasher) {
      fingerprints.push_back(hasher->fingerprint(title, ends.size() - before, [&](size_t i) { return text(before + i); }));
    }
  }
  std::string_view text(size_t i) const {
    const uint32_t start = i == 0 ? 0 : ends[i - 1];
    return {pool.data() + start, ends[i] - start};
  }
  AnalyzedTerm term(size_t i) const { return {text(i), numbers[i]}; }
  void clear() {
    pool.clear();
    ends.clear();
    numbers.clear();
    counts.clear();
    numberings.clear();
    fingerprints.clear();
  }
};

struct Chunk {
  DocId base = 0;
  std::vector<Document> docs;
  size_t bytes = 0;     // of the docs' fields
  AnalyzedTerms terms;  // when the adding thread analyzed them
};

// What a worker keeps between chunks: its analyzer (and the analyzer's
// stem cache), and its open segment, which the next chunk continues when
// it starts where the segment ends (always with one worker).
struct Worker {
  explicit Worker(const Stopwords& stopwords) : words(stopwords) {}
  Analyzer words;
  std::unique_ptr<SegmentWriter> segment;
  DocId segment_base = 0;
  AnalyzedTerms scratch;  // one doc's terms, when the chunk comes unanalyzed
  SimHasher hasher;
  AnalyzedDoc doc;
};

// Holds an exclusive lock on DIR/LOCK so two writers never write one index.
// flock() locks belong to the open file: the kernel drops them when the
// holder dies, so a killed writer never leaves a stale lock; the file
// only names the holder's pid for the error message.
class DirLock {
 public:
  explicit DirLock(const std::string& dir) {
    std::string path = dir + "/LOCK";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw IoError(path, std::string("cannot open: ") + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      char buf[32] = {};
      ssize_t n = ::pread(fd_, buf, sizeof buf - 1, 0);
      ::close(fd_);
      long pid = n > 0 ? std::strtol(buf, nullptr, 10) : 0;
      throw LockError(dir, "index is locked by another writer" +
                               (pid > 0 ? " (process " + std::to_string(pid) + ")" : std::string()));
    }
    std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, pid.data(), pid.size(), 0) != ssize_t(pid.size())) {
      // Only the message of a second writer depends on it.
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
  // What the next commit builds on: the last commit (or, replacing, an
  // empty index that keeps counting generations).
  Manifest base;
  Stopwords stopwords;  // the index's, which every worker analyzes with
  PairWords pair_words;  // the index's
  DocId next_id = 0;
  uint64_t docs_added = 0, added_since_commit = 0;

  // Deletes waiting for the commit, each bounded by the ids given before it.
  std::vector<std::pair<DocId, DocId>> id_deletes;        // (id, bound)
  std::unordered_map<std::string, DocId> url_deletes;     // url -> bound
  std::vector<std::pair<IndexWriterAccess::DocSelector, DocId>> selectors;   // (select, bound)
  size_t forced_max_segments = 0;                         // 0: none

  // How the threads share the work. One: the adding thread does it all.
  // Two: it analyzes each doc as it is added while one worker inverts the
  // chunks, in order, into one segment at a time; analysis and inversion
  // are about even halves, and a dump that fits the budget leaves one
  // segment and nothing to merge. More: each of `threads` workers analyzes
  // and inverts whole chunks into segments of its own, which the commit
  // merges (the build then scales past two cores; the merge does not).
  unsigned inverters() const { return options.threads == 2 ? 1 : options.threads; }
  bool analyze_on_add() const { return options.threads == 2; }
  std::unique_ptr<Analyzer> adding_words;  // when analyze_on_add()
  SimHasher adding_hasher;
  Chunk filling;
  std::vector<SegmentInfo> flushed;  // in the order workers finish them
  std::atomic<uint64_t> next_segment = 0;
  std::unique_ptr<Worker> inline_worker;

  std::vector<std::thread> threads;
  std::mutex mu;
  std::condition_variable cv;
  std::deque<Chunk> queue;
  bool closing = false, finishing = true;
  std::exception_ptr error;

  Impl(std::string d, IndexWriterOptions o)
      : dir((create_dir(d), std::move(d))),
        options(std::move(o)),
        lock(dir),
        base(starting_manifest()),
        stopwords(base.stopwords),
        pair_words(base.pair_words),
        next_id(base.next_doc_id) {
    start_workers();
  }

  ~Impl() {
    stop_workers(/*finish=*/false);
    remove_uncommitted();
  }

  Manifest starting_manifest() const {
    // Its SHARDS file names the shards' doc counts: a writer of DIR itself
    // would hide them, one of a shard would shift the ids of those after it.
    if (shard_manifest_exists(dir)) {
      throw IndexError(dir, "a sharded index (fts-index build --distributed): rebuild it the same way, or "
                            "remove it to build an index of one directory there");
    }
    if (options.mode == IndexWriterOptions::Mode::kAppend) {
      // Appending needs the index as committed: a damaged manifest is an error.
      if (manifest_exists(dir)) return read_manifest(dir);
    }
    Manifest m;
    m.generation = previous_manifest(dir).generation;
    m.stopwords = options.stopwords.words();
    m.pair_words = options.pair_words ? *options.pair_words : default_pair_words();
    for (const auto& w : m.pair_words) {
      if (w.empty() || is_pair_term(w)) {
        throw ArgumentError("IndexWriterOptions::pair_words", "\"" + w + "\" is not one analyzed token");
      }
    }
    return m;
  }

  std::string segment_name() {
    return "seg-" + std::to_string(base.generation + 1) + "-" + std::to_string(next_segment++);
  }

  // Below 16 MB segments get too small to be worth their files.
  size_t budget_bytes() const { return std::max<size_t>(options.ram_mb, kMinRamMb) << 20; }
  // Each inverter gets an equal share of the budget. A chunk of an eighth
  // share of text keeps several workers evenly loaded to the end of a
  // build (inverted, abstracts take about as much memory as their text);
  // analyzed on the adding thread, a chunk is small so that the inverter
  // starts at once and the two stay in step.
  size_t worker_budget() const { return budget_bytes() / inverters(); }
  size_t chunk_bytes() const { return analyze_on_add() ? kAnalyzedChunkBytes : worker_budget() / 8; }

  void finish_segment(Worker& w) {
    if (!w.segment) return;
    SegmentInfo info = w.segment->finish();
    info.base = w.segment_base;
    w.segment.reset();
    std::lock_guard lk(mu);
    flushed.push_back(info);
  }

  // Analyzes and inverts a chunk into the worker's open segment when the
  // chunk continues it, else into new ones; a segment is finished when it
  // outgrows the worker's budget or max_segment_docs.
  void invert(Chunk& chunk, Worker& w) {
    if (w.segment && w.segment_base + w.segment->doc_count() != chunk.base) finish_segment(w);
    AnalyzedDoc& ad = w.doc;
    const bool analyzed = !chunk.terms.counts.empty();
    size_t next_term = 0;  // the doc's first term in chunk.terms
    for (size_t i = 0; i < chunk.docs.size(); ++i) {
      Document& doc = chunk.docs[i];
      const AnalyzedTerms* terms = &chunk.terms;
      size_t first = next_term, title_count = 0, abstract_count = 0;
      if (analyzed) {
        title_count = chunk.terms.counts[2 * i];
        abstract_count = chunk.terms.counts[2 * i + 1];
        next_term += title_count + abstract_count;
      } else {
        w.scratch.clear();
        w.scratch.add(w.words, doc, options.near_dupes ? &w.hasher : nullptr);
        terms = &w.scratch;
        first = 0;
        title_count = w.scratch.counts[0];
        abstract_count = w.scratch.counts[1];
      }
      ad.title_terms.clear();
      ad.abstract_terms.clear();
      for (size_t t = 0; t < title_count; ++t) ad.title_terms.push_back(terms->term(first + t));
      for (size_t t = 0; t < abstract_count; ++t) ad.abstract_terms.push_back(terms->term(first + title_count + t));
      ad.term_numbering = analyzed ? chunk.terms.numberings[i] : w.scratch.numberings[0];
      if (options.near_dupes) ad.fingerprint = analyzed ? chunk.terms.fingerprints[i] : w.scratch.fingerprints[0];
      ad.title = std::move(doc.title);
      ad.url = std::move(doc.url);
      ad.abstract = std::move(doc.abstract);
      if (!w.segment) {
        w.segment = std::make_unique<SegmentWriter>(dir, segment_name(), options.near_dupes, &pair_words);
        w.segment_base = chunk.base + static_cast<DocId>(i);
      }
      w.segment->add(ad);
      if (w.segment->memory_bytes() >= worker_budget() ||
          (options.max_segment_docs && w.segment->doc_count() >= options.max_segment_docs)) {
        finish_segment(w);
      }
    }
  }

  void run_worker() {
    Worker w(stopwords);
    for (;;) {
      Chunk chunk;
      bool failed = false;  // another worker did: the rest is dropped
      {
        std::unique_lock lk(mu);
        cv.wait(lk, [&] { return !queue.empty() || closing; });
        if (queue.empty()) break;
        chunk = std::move(queue.front());
        queue.pop_front();
        failed = error != nullptr;
      }
      cv.notify_all();
      try {
        if (!failed) invert(chunk, w);
      } catch (...) {
        std::lock_guard lk(mu);
        error = std::current_exception();
      }
    }
    bool finish = false;
    {
      std::lock_guard lk(mu);
      finish = !error && finishing;
    }
    try {
      if (finish) finish_segment(w);
    } catch (...) {
      std::lock_guard lk(mu);
      error = std::current_exception();
    }
  }

  void start_workers() {
    closing = false;
    filling.base = next_id;
    if (options.threads == 1) {
      inline_worker = std::make_unique<Worker>(stopwords);
      return;
    }
    if (analyze_on_add() && !adding_words) adding_words = std::make_unique<Analyzer>(stopwords);
    for (unsigned t = 0; t < inverters(); ++t) threads.emplace_back([this] { run_worker(); });
  }

  void submit() {
    Chunk chunk = std::move(filling);
    filling = Chunk{};
    filling.base = chunk.base + static_cast<DocId>(chunk.docs.size());
    if (chunk.docs.empty()) return;
    if (inline_worker) {
      invert(chunk, *inline_worker);
      return;
    }
    // One chunk waits at most: the adding thread outruns the workers.
    std::unique_lock lk(mu);
    cv.wait(lk, [&] { return queue.empty() || error; });
    if (error) std::rethrow_exception(error);
    queue.push_back(std::move(chunk));
    cv.notify_all();
  }

  // With finish, every worker first finishes its open segment; else (the
  // writer dropped uncommitted) their files are left for the next commit to
  // remove, as no manifest names them.
  void stop_workers(bool finish = true) {
    {
      std::lock_guard lk(mu);
      closing = true;
      finishing = finish;
    }
    cv.notify_all();
    for (auto& t : threads) t.join();
    threads.clear();
    if (inline_worker && finish && !error) finish_segment(*inline_worker);
    inline_worker.reset();
  }

  DocId add(Document&& doc) {
    if (next_id >= kNoMoreDocs - 1) throw IndexError(dir, "too many documents for one index");
    filling.bytes += doc.title.size() + doc.url.size() + doc.abstract.size();
    if (adding_words) filling.terms.add(*adding_words, doc, options.near_dupes ? &adding_hasher : nullptr);
    filling.docs.push_back(std::move(doc));
    ++docs_added;
    ++added_since_commit;
    if (filling.bytes >= chunk_bytes() ||
        (options.max_segment_docs && filling.docs.size() >= options.max_segment_docs)) {
      submit();
    }
    return next_id++;
  }

  // ---- deletes -------------------------------------------------------------

  // The segments of the commit being built, with live docs being changed.
  struct Working {
    SegmentInfo info;
    IndexReader::Segment segment;
    std::shared_ptr<LiveDocs> changed;  // copy-on-write of segment.live
    void remove(DocId local) {
      if (!segment.is_live(local)) return;
      if (!changed) {
        changed = std::make_shared<LiveDocs>(segment.live ? *segment.live : LiveDocs(info.doc_count));
      }
      changed->remove(local);
      segment.live = changed;
    }
  };

  uint64_t apply_deletes(std::vector<Working>& segs, const IndexReader& snapshot) {
    uint64_t before = 0, after = 0;
    for (const auto& w : segs) before += w.segment.live_count();
    auto remove_global = [&](DocId doc, DocId bound) {
      if (doc >= bound) return;
      auto it = std::lower_bound(segs.begin(), segs.end(), doc,
                                 [](const Working& w, DocId d) { return w.segment.last() < d; });
      if (it == segs.end()) return;
      if (auto local = it->segment.local(doc)) it->remove(*local);
    };
    for (const auto& [doc, bound] : id_deletes) remove_global(doc, bound);
    for (auto& [select, bound] : selectors) {
      for (DocId doc : select(snapshot)) remove_global(doc, bound);
    }
    for (auto& w : segs) {
      if (url_deletes.empty()) break;
      const SegmentReader& reader = *w.segment.reader;
      // A url looked up in the table costs a doc-store read per candidate
      // (about 70 us), a pass over the stored urls about 1.4 us a doc (1M
      // docs: 10,000 urls in 0.68 s against 1.48 s): past one url per 50
      // docs, or without a table (older segments), the pass is cheaper.
      if (reader.has_url_table() && url_deletes.size() * 50 < reader.doc_count()) {
        for (const auto& [url, bound] : url_deletes) {
          for (DocId d : reader.docs_with_url(url)) {
            if (w.segment.global(d) < bound) w.remove(d);
          }
        }
        continue;
      }
      for (DocId d = 0; d < reader.doc_count(); ++d) {
        if (!w.segment.is_live(d)) continue;
        auto found = url_deletes.find(reader.doc_store().get(d).url);
        if (found != url_deletes.end() && w.segment.global(d) < found->second) w.remove(d);
      }
    }
    id_deletes.clear();
    url_deletes.clear();
    selectors.clear();
    for (const auto& w : segs) after += w.segment.live_count();
    return before - after;
  }

  // ---- merges --------------------------------------------------------------

  // Merges segs[first, last) into one segment (deleted docs purged).
  void merge_range(std::vector<Working>& segs, size_t first, size_t last) {
    std::vector<IndexReader::Segment> inputs;
    uint64_t docs = 0;
    for (size_t i = first; i < last; ++i) {
      inputs.push_back(segs[i].segment);
      docs += segs[i].segment.live_count();
    }
    // A second thread on the postings pays only on merges of some size.
    const unsigned threads = docs >= kParallelMergeDocs ? options.threads : 1;
    SegmentInfo merged = merge_segments(dir, inputs, segment_name(), threads);
    inputs.clear();
    auto at = segs.erase(segs.begin() + static_cast<std::ptrdiff_t>(first),
                         segs.begin() + static_cast<std::ptrdiff_t>(last));
    if (merged.doc_count == 0) return;  // every doc was deleted
    segs.insert(at, open_working(merged));
  }

  Working open_working(const SegmentInfo& info) {
    Working w;
    w.info = info;
    // A flushed or merged segment: its cluster ids come at commit.
    w.segment.reader = SegmentReader::open(dir, info.name, info.has_bloom, info.has_urls,
                                           info.has_dupes ? NearDupeFiles::kFingerprints : NearDupeFiles::kNone);
    w.segment.base = info.base;
    if (info.has_id_map) {
      w.segment.ids = std::make_shared<DocIdMap>(segment_file(dir, info.name, "ids"), info.doc_count);
    }
    return w;
  }

  static uint32_t size_tier(uint32_t live) {
    uint32_t tier = 0;
    for (; live >= 10; live /= 10) ++tier;
    return tier;
  }

  // The merge policy. Only neighbours merge, so segments keep ascending,
  // disjoint id ranges. A run of segments_per_merge neighbours in one size
  // tier (a power of ten of live docs) merges into one, which lands in a
  // higher tier; so each tier holds fewer than segments_per_merge runs'
  // worth of segments. A segment with many deleted docs is rewritten alone.
  void merge_by_policy(std::vector<Working>& segs) {
    const size_t k = std::max<size_t>(options.segments_per_merge, 2);
    for (bool merged = true; merged;) {
      merged = false;
      for (size_t i = 0; i < segs.size(); ++i) {
        const auto& w = segs[i];
        if (uint64_t(w.segment.reader->doc_count() - w.segment.live_count()) * 100 >
            uint64_t(options.max_deleted_percent) * w.segment.reader->doc_count()) {
          merge_range(segs, i, i + 1);
          merged = true;
          break;
        }
      }
      if (merged) continue;
      for (size_t i = 0; i + k <= segs.size() && !merged; ++i) {
        uint32_t tier = size_tier(segs[i].segment.live_count());
        size_t j = i + 1;
        while (j < segs.size() && j - i < k && size_tier(segs[j].segment.live_count()) == tier) ++j;
        if (j - i == k) {
          merge_range(segs, i, j);
          merged = true;
        }
      }
    }
  }

  // Down to at most max segments, every deleted doc purged: neighbours
  // grouped into runs of about equal live docs.
  void force_merge(std::vector<Working>& segs, size_t max) {
    uint64_t total = 0;
    for (const auto& w : segs) total += w.segment.live_count();
    std::vector<std::pair<size_t, size_t>> groups;
    size_t first = 0;
    uint64_t in_group = 0, done = 0;
    for (size_t i = 0; i < segs.size(); ++i) {
      in_group += segs[i].segment.live_count();
      const size_t left = max - groups.size();  // groups still to form, this one included
      // Close the group once it holds its share of what is left.
      if (i + 1 == segs.size() || (left > 1 && (in_group * left >= total - done))) {
        groups.emplace_back(first, i + 1);
        done += in_group;
        in_group = 0;
        first = i + 1;
      }
    }
    // Back to front so earlier indexes stay valid.
    for (auto g = groups.rbegin(); g != groups.rend(); ++g) {
      bool has_deletes = false;
      for (size_t i = g->first; i < g->second; ++i) has_deletes |= segs[i].segment.live != nullptr;
      if (g->second - g->first > 1 || has_deletes) merge_range(segs, g->first, g->second);
    }
  }

  // ---- commit --------------------------------------------------------------

  void remove_unreferenced(const Manifest& live) {
    std::unordered_set<std::string> keep;
    for (const auto& s : live.segments) {
      for (const char* ext : kSegmentExtensions) keep.insert(s.name + "." + ext);
      if (s.has_bloom) keep.insert(s.name + "." + kBloomExtension);
      if (s.has_urls) keep.insert(s.name + "." + kUrlsExtension);
      if (s.has_dupes) {
        keep.insert(s.name + "." + kFingerprintsExtension);
        keep.insert(s.name + "." + kClusterIdsExtension);
      }
      if (s.has_id_map) keep.insert(s.name + ".ids");
      if (s.live_generation) keep.insert(s.name + "." + std::to_string(s.live_generation) + ".live");
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      bool ours = name.starts_with("seg-") || name.ends_with(".tmp");
      if (ours && !keep.contains(name)) std::filesystem::remove(entry.path(), ec);
    }
  }

  // Removes the files of a commit that failed before its manifest took
  // effect: this writer's segments and live docs (their generation is the
  // next one; the lock keeps anyone else from writing it). Whether the
  // manifest took effect is read back, as a failed fsync can follow the
  // rename; when that cannot be read, the files stay.
  void remove_uncommitted() noexcept {
    const std::string generation = std::to_string(base.generation + 1);
    try {
      if (manifest_exists(dir) && read_manifest(dir).generation > base.generation) return;
    } catch (...) {
      return;
    }
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      std::string name = entry.path().filename().string();
      if (name.starts_with("seg-" + generation + "-") || name.ends_with("." + generation + ".live")) {
        std::filesystem::remove(entry.path(), ec);
      }
    }
  }

  BuildStats commit() {
    try {
      return try_commit();
    } catch (...) {
      remove_uncommitted();
      throw;
    }
  }

  BuildStats try_commit() {
    submit();
    stop_workers();
    if (error) std::rethrow_exception(error);
    std::sort(flushed.begin(), flushed.end(),
              [](const SegmentInfo& a, const SegmentInfo& b) { return a.base < b.base; });

    Manifest next;
    next.generation = base.generation + 1;
    next.stopwords = base.stopwords;
    next.pair_words = base.pair_words;
    next.next_doc_id = next_id;
    BuildStats stats;
    stats.added = added_since_commit;

    // This commit's segments, merged into one unless told otherwise.
    std::vector<Working> segs;
    {
      auto committed = IndexReader::open(dir, base);
      for (size_t i = 0; i < base.segments.size(); ++i) {
        Working w;
        w.info = base.segments[i];
        w.segment = committed->segments()[i];
        segs.push_back(std::move(w));
      }
    }
    for (const auto& info : flushed) segs.push_back(open_working(info));
    if (options.merge && flushed.size() > 1) merge_range(segs, segs.size() - flushed.size(), segs.size());
    flushed.clear();

    if (!id_deletes.empty() || !url_deletes.empty() || !selectors.empty()) {
      Manifest view = next;
      for (const auto& w : segs) view.segments.push_back(describe(w, 0));
      std::vector<IndexReader::Segment> open;
      for (const auto& w : segs) open.push_back(w.segment);
      IndexReader snapshot(dir, view, std::move(open));
      stats.deleted = apply_deletes(segs, snapshot);
      // A segment whose every doc is deleted leaves the index.
      std::erase_if(segs, [](const Working& w) { return w.segment.live_count() == 0; });
    }
    if (forced_max_segments > 0) {
      force_merge(segs, forced_max_segments);
      forced_max_segments = 0;
    } else if (options.merge) {
      merge_by_policy(segs);
    }

    {
      std::vector<IndexReader::Segment*> clustered;
      for (auto& w : segs) clustered.push_back(&w.segment);
      assign_cluster_ids(dir, clustered, options.dupe_distance, options.threads, budget_bytes());
    }
    for (auto& w : segs) {
      if (w.changed) {
        w.changed->write(live_docs_file(dir, w.info.name, next.generation));
        w.segment.live_generation = next.generation;
        w.changed.reset();
      }
      next.segments.push_back(describe(w, w.segment.live_generation));
    }
    stats.segments = next.segments.size();
    write_manifest(dir, next);
    remove_unreferenced(next);
    base = next;
    added_since_commit = 0;
    start_workers();

    for (const auto& w : segs) {
      stats.docs += w.segment.live_count();
      // Distinct terms: every term has exactly one kAny key.
      const std::string any_prefix(1, static_cast<char>(Field::kAny));
      w.segment.reader->terms().for_each_prefix(any_prefix, [&](std::string_view key, const TermInfo&) {
        stats.terms += !is_pair_term(key);
      });
      for (const char* ext : kSegmentExtensions) {
        stats.index_bytes += std::filesystem::file_size(segment_file(dir, w.info.name, ext));
      }
    }
    stats.index_bytes += std::filesystem::file_size(manifest_path(dir));
    return stats;
  }

  static SegmentInfo describe(const Working& w, uint64_t live_generation) {
    SegmentInfo info = w.info;
    info.base = w.segment.base;
    info.has_id_map = w.segment.ids != nullptr;
    info.deleted = w.segment.reader->doc_count() - w.segment.live_count();
    info.live_generation = info.deleted ? live_generation : 0;
    return info;
  }
};

namespace {
IndexWriterOptions validated(IndexWriterOptions options) {
  if (options.ram_mb == 0) throw ArgumentError("IndexWriterOptions::ram_mb", "must be positive");
  if (options.threads == 0) throw ArgumentError("IndexWriterOptions::threads", "must be at least 1");
  if (options.dupe_distance > kMaxDupeDistance) {
    throw ArgumentError("IndexWriterOptions::dupe_distance", "must be at most " + std::to_string(kMaxDupeDistance));
  }
  return options;
}
}  // namespace

IndexWriter::IndexWriter(std::string dir, IndexWriterOptions options)
    : impl_(at_api_boundary(dir, [&] { return std::make_unique<Impl>(dir, validated(std::move(options))); })) {}

IndexWriter::~IndexWriter() = default;

DocId IndexWriter::add(Document doc) {
  return at_api_boundary(impl_->dir, [&] { return impl_->add(std::move(doc)); });
}
DocId IndexWriter::next_doc_id() const { return impl_->next_id; }
uint64_t IndexWriter::docs_added() const { return impl_->docs_added; }

void IndexWriter::delete_doc(DocId doc) { impl_->id_deletes.emplace_back(doc, impl_->next_id); }

void IndexWriter::delete_url(const std::string& url) { impl_->url_deletes[url] = impl_->next_id; }

void IndexWriterAccess::delete_matching(IndexWriter& writer, DocSelector select) {
  writer.impl_->selectors.emplace_back(std::move(select), writer.impl_->next_id);
}

const Stopwords& IndexWriterAccess::stopwords(const IndexWriter& writer) { return writer.impl_->stopwords; }

DocId IndexWriter::update(Document doc) {
  delete_url(doc.url);
  return add(std::move(doc));
}

void IndexWriter::force_merge(size_t max_segments) { impl_->forced_max_segments = std::max<size_t>(max_segments, 1); }


BuildStats IndexWriter::commit() {
  return at_api_boundary(impl_->dir, [&] { return impl_->commit(); });
}

}  // namespace fts
