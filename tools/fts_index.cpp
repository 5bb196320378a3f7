// fts-index: build, change, inspect, verify an index; print analyzed tokens.
//   fts-index build --index DIR [--ram-mb N] [--no-merge] [--stopwords FILE|none] [--pair-words FILE|none]
//                   [--strict] DUMP...
//   mpirun -np R fts-index build --index DIR --distributed [options] DUMP...   (R shards)
//   fts-index add|update --index DIR [--ram-mb N] [--no-merge] [--strict] DUMP...
//   fts-index delete --index DIR [--no-merge] (--id N... | --url URL... | --query Q)
//   fts-index merge --index DIR [--max-segments N]
//   fts-index dupes --index DIR [--distance K] [--limit N]
//   fts-index info DIR | check DIR | analyze [--stopwords ...] [TEXT]
#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/core.h>

#include "analyzer/analyzer.h"
#include "analyzer/stopwords.h"
#include "common/cli.h"
#include "common/mpi_companion.h"
#include "fts_index_distributed.h"
#include "fts_index_dupes.h"
#include "engine/fts.h"
#include "index/format/fingerprints.h"
#include "index/format/manifest.h"
#include "index/format/segment_files.h"
#include "index/format/word_pairs.h"

namespace po = boost::program_options;
using namespace fts;

namespace {

constexpr const char* kTool = "fts-index";

const char* kUsage =
    "usage: fts-index build --index DIR [options] DUMP...   (DUMP: .xml, .xml.gz or - for stdin)\n"
    "       mpirun -np R fts-index build --index DIR --distributed [options] DUMP...   (R shards, one per rank)\n"
    "       fts-index add --index DIR [options] DUMP...     (appends the docs)\n"
    "       fts-index update --index DIR [options] DUMP...  (replaces the docs with the same url)\n"
    "       fts-index delete --index DIR [--no-merge] (--id N... | --url URL... | --query Q)\n"
    "       fts-index merge --index DIR [--max-segments N]\n"
    "       fts-index dupes --index DIR [--distance K] [--limit N]   (the largest near-duplicate clusters)\n"
    "       fts-index info DIR\n"
    "       fts-index check DIR\n"
    "       fts-index analyze [--stopwords FILE|none] [TEXT]   (no TEXT: each stdin line)\n";

using cli::UsageError;

po::variables_map parse(const std::vector<std::string>& args, const po::options_description& named,
                        const po::positional_options_description& positional) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(named).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return vm;
}

// Progress on a terminal: docs/s, MB/s and an ETA from the input size.
class Progress {
 public:
  explicit Progress(bool enabled) : enabled_(enabled), start_(cli::now_seconds()) {}
  void update(uint64_t docs, uint64_t read, uint64_t total, bool force = false) {
    if (!enabled_) return;
    double now = cli::now_seconds();
    if (!force && now - last_ < 0.5) return;
    last_ = now;
    double secs = std::max(now - start_, 1e-9);
    std::string eta;
    if (total > 0 && read > 0 && read <= total) eta = fmt::format(", ETA {:.0f} s", secs * (double(total) / read - 1));
    fmt::print(stderr, "\r{} docs, {:.0f} docs/s, {:.1f} MB/s{}   ", docs, docs / secs, read / secs / 1e6, eta);
  }
  void done() {
    if (enabled_) fmt::print(stderr, "\n");
  }

 private:
  bool enabled_;
  double start_, last_ = 0;
};

// --pair-words: unset (the library's default words), none, or the words of
// FILE as the analyzer gives them (so "called" pairs as "call"); a stopword
// has no token and is left out.
std::optional<std::vector<std::string>> pair_words_option(const std::string& spec, const Stopwords& stopwords) {
  if (spec == "default") return std::nullopt;
  if (spec == "none") return std::vector<std::string>{};
  Analyzer analyzer(stopwords);
  std::vector<std::string> words;
  for (const std::string& word : read_word_list(spec, "pair words file")) {
    std::vector<std::string> tokens = analyzer.analyze(word);
    if (tokens.size() > 1) throw UsageError(spec + ": \"" + word + "\" is more than one word");
    if (!tokens.empty() && std::find(words.begin(), words.end(), tokens[0]) == words.end()) words.push_back(tokens[0]);
  }
  return words;
}

// build (a new index replacing what DIR held), add (appended docs) and
// update (docs replacing those with their url) read dumps alike.
enum class Ingest { kBuild, kAdd, kUpdate };

int ingest(const std::vector<std::string>& args, Ingest how) {
  po::options_description named("build options");
  named.add_options()("index", po::value<std::string>()->required(), "index directory")(
      "ram-mb", po::value<size_t>()->default_value(512), "memory budget of the inverter in MB (at least 16)")(
      "no-merge", "keep the flushed segments instead of merging them")(
      "max-segment-docs", po::value<uint32_t>()->default_value(0), "also flush a segment after this many docs")(
      "strict", "a malformed <doc> is an error instead of a skipped doc")(
      "threads", po::value<unsigned>()->default_value(std::max(1u, std::thread::hardware_concurrency())),
      "threads that analyze and invert (default: the cores)")(
      "dumps", po::value<std::vector<std::string>>()->required(), "dump files");
  // An index keeps the stopwords it was built with.
  if (how == Ingest::kBuild) {
    named.add_options()("stopwords", po::value<std::string>()->default_value("default"), "FILE, none or default")(
        "pair-words", po::value<std::string>()->default_value("default"),
        "FILE (a word a line), none or default: adjacent pairs of these words are indexed, for fast phrases")(
        "dupe-distance", po::value<unsigned>()->default_value(IndexWriterOptions{}.dupe_distance),
        "near-duplicates: fingerprints at most K bits apart share a cluster (0..15)")(
        "no-near-dupes", "no near-duplicate fingerprints or clusters (--collapse then collapses nothing)")(
        "distributed", "under mpirun: each rank builds one shard, DIR/shard-RANK (default threads: its share of the cores)");
  }
  po::positional_options_description positional;
  positional.add("dumps", -1);
  auto vm = parse(args, named, positional);

  IndexWriterOptions options;
  options.ram_mb = vm["ram-mb"].as<size_t>();
  options.merge = !vm.count("no-merge");
  options.threads = vm["threads"].as<unsigned>();
  options.max_segment_docs = vm["max-segment-docs"].as<uint32_t>();
  options.mode = how == Ingest::kBuild ? IndexWriterOptions::Mode::kReplace : IndexWriterOptions::Mode::kAppend;
  if (how == Ingest::kBuild) {
    options.near_dupes = !vm.count("no-near-dupes");
    options.dupe_distance = vm["dupe-distance"].as<unsigned>();
    if (options.dupe_distance > kMaxDupeDistance) {
      throw UsageError("--dupe-distance must be at most " + std::to_string(kMaxDupeDistance));
    }
    try {
      options.stopwords = Stopwords::from_option(vm["stopwords"].as<std::string>());
      options.pair_words = pair_words_option(vm["pair-words"].as<std::string>(), options.stopwords);
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
  } else if (!manifest_exists(vm["index"].as<std::string>())) {
    throw IndexError(vm["index"].as<std::string>(), std::string("not an fts index (no ") + kManifestName +
                     "); fts-index build makes one");
  }
  if (options.ram_mb == 0) throw UsageError("--ram-mb must be positive");

  DumpReader::Options reader_options;
  reader_options.strict = vm.count("strict") > 0;
  bool tty = cli::stderr_is_terminal();
  reader_options.warn = [&](const std::string& w) { fmt::print(stderr, "{}{}: warning: {}\n", tty ? "\n" : "", kTool, w); };
  if (vm.count("distributed")) {
    return build_distributed_cli(vm["index"].as<std::string>(), vm["dumps"].as<std::vector<std::string>>(), options,
                                 !vm["threads"].defaulted(), reader_options);
  }
  double start = cli::now_seconds();
  IndexWriter writer(vm["index"].as<std::string>(), options);
  Progress progress(tty);
  uint64_t skipped = 0;
  for (const auto& path : vm["dumps"].as<std::vector<std::string>>()) {
    DumpReader reader(path, reader_options);
    Document doc;
    while (reader.next(doc)) {
      if (how == Ingest::kUpdate) {
        writer.update(std::move(doc));
      } else {
        writer.add(std::move(doc));
      }
      if ((writer.docs_added() & 1023) == 0) {
        progress.update(writer.docs_added(), reader.input_bytes_read(), reader.input_size());
      }
    }
    skipped += reader.docs_skipped();
    progress.update(writer.docs_added(), reader.input_bytes_read(), reader.input_size(), true);
  }
  progress.done();
  BuildStats stats = writer.commit();
  std::string changes;
  if (how != Ingest::kBuild) changes = fmt::format("{} added, {} deleted, ", stats.added, stats.deleted);
  fmt::print(stderr,
             "{}: {}{} docs, {} skipped, {} terms, {} segment(s), {} bytes, {:.2f} s, peak memory {:.0f} MB\n", kTool,
             changes, stats.docs, skipped, stats.terms, stats.segments, stats.index_bytes,
             cli::now_seconds() - start, cli::peak_rss_mb());
  return cli::kOk;
}

int remove(const std::vector<std::string>& args) {
  po::options_description named("delete options");
  named.add_options()("index", po::value<std::string>()->required(), "index directory")(
      "id", po::value<std::vector<DocId>>()->multitoken(), "doc ids")(
      "url", po::value<std::vector<std::string>>()->multitoken(), "urls (every doc with one)")(
      "query", po::value<std::string>(), "a query (every doc it matches)")(
      "no-merge", "leave the segments as they are (no merge policy)");
  auto vm = parse(args, named, {});
  const int given = int(vm.count("id") > 0) + int(vm.count("url") > 0) + int(vm.count("query") > 0);
  if (given != 1) throw UsageError("delete takes one of --id, --url or --query");
  const std::string dir = vm["index"].as<std::string>();
  if (!manifest_exists(dir)) throw IndexError(dir, "not an fts index (no " + std::string(kManifestName) + ")");
  IndexWriterOptions options;
  options.merge = !vm.count("no-merge");
  IndexWriter writer(dir, options);
  if (vm.count("id")) {
    for (DocId id : vm["id"].as<std::vector<DocId>>()) writer.delete_doc(id);
  } else if (vm.count("url")) {
    for (const auto& url : vm["url"].as<std::vector<std::string>>()) writer.delete_url(url);
  } else {
    writer.delete_by_query(vm["query"].as<std::string>());
  }
  BuildStats stats = writer.commit();
  fmt::print(stderr, "{}: {} deleted, {} docs, {} segment(s)\n", kTool, stats.deleted, stats.docs, stats.segments);
  return cli::kOk;
}

int merge(const std::vector<std::string>& args) {
  po::options_description named("merge options");
  named.add_options()("index", po::value<std::string>()->required(), "index directory")(
      "max-segments", po::value<size_t>()->default_value(1), "merge down to at most this many segments");
  auto vm = parse(args, named, {});
  const std::string dir = vm["index"].as<std::string>();
  if (vm["max-segments"].as<size_t>() == 0) throw UsageError("--max-segments must be positive");
  if (!manifest_exists(dir)) throw IndexError(dir, "not an fts index (no " + std::string(kManifestName) + ")");
  double start = cli::now_seconds();
  IndexWriter writer(dir);
  writer.force_merge(vm["max-segments"].as<size_t>());
  BuildStats stats = writer.commit();
  fmt::print(stderr, "{}: {} docs, {} segment(s), {} bytes, {:.2f} s\n", kTool, stats.docs, stats.segments,
             stats.index_bytes, cli::now_seconds() - start);
  return cli::kOk;
}

int info(const std::vector<std::string>& args) {
  if (args.size() != 1) throw UsageError("info takes one index directory");
  const std::string& dir = args[0];
  auto reader = IndexReader::open(dir);
  uint64_t terms = 0, postings = 0, keys = 0, pairs = 0;
  std::map<std::string, uint64_t> bytes;
  const std::string any_prefix(1, static_cast<char>(Field::kAny));
  for (const auto& seg : reader->segments()) {
    keys += seg.reader->terms().size();
    seg.reader->terms().for_each_prefix(any_prefix, [&](std::string_view key, const TermInfo& info) {
      if (is_pair_term(key)) {
        ++pairs;
        return;
      }
      ++terms;
      postings += info.doc_freq;
    });
    const std::string name = seg.reader->name().substr(dir.size() + 1);
    for (const char* ext : kSegmentExtensions) bytes[ext] += std::filesystem::file_size(segment_file(dir, name, ext));
    if (!seg.reader->bloom().empty()) {
      bytes[kBloomExtension] += std::filesystem::file_size(segment_file(dir, name, kBloomExtension));
    }
    if (seg.reader->has_url_table()) {
      bytes[kUrlsExtension] += std::filesystem::file_size(segment_file(dir, name, kUrlsExtension));
    }
    if (!seg.reader->cluster_ids().empty()) {
      for (const char* ext : {kFingerprintsExtension, kClusterIdsExtension}) {
        bytes[ext] += std::filesystem::file_size(segment_file(dir, name, ext));
      }
    }
  }
  fmt::print("index:            {}\n", dir);
  fmt::print("docs:             {}\n", reader->live_count());
  fmt::print("deleted docs:     {} (purged by merges)\n", reader->doc_count() - reader->live_count());
  fmt::print("next doc id:      {}\n", reader->next_doc_id());
  if (!reader->shards().empty()) {
    fmt::print("shards:           {}\n", reader->shards().size());
    for (const auto& shard : reader->shards()) {
      fmt::print("  {:<20} docs {}  segments {}\n", shard->dir().substr(dir.size() + 1), shard->live_count(),
                 shard->segments().size());
    }
  }
  fmt::print("segments:         {}\n", reader->segments().size());
  for (const auto& seg : reader->segments()) {
    fmt::print("  {:<20} ids {}..{}  live {}  deleted {}\n", seg.reader->name().substr(dir.size() + 1), seg.base,
               seg.last(), seg.live_count(), seg.reader->doc_count() - seg.live_count());
  }
  fmt::print("terms:            {}{}\n", terms, reader->segments().size() > 1 ? " (summed over segments)" : "");
  fmt::print("dictionary keys:  {} (term x field)\n", keys);
  fmt::print("postings:         {} (doc, term) pairs\n", postings);
  fmt::print("avg title length: {:.2f} terms\n", reader->average_field_length(Field::kTitle));
  fmt::print("avg abstract len: {:.2f} terms\n", reader->average_field_length(Field::kAbstract));
  std::string words;
  for (const auto& w : reader->stopwords().words()) words += (words.empty() ? "" : " ") + w;
  fmt::print("stopwords:        {}\n", words.empty() ? "(none)" : words);
  words.clear();
  for (const auto& w : reader->pair_words().list()) words += (words.empty() ? "" : " ") + w;
  fmt::print("pair words:       {}\n", words.empty() ? "(none)" : words);
  fmt::print("word pairs:       {} (indexed adjacent pairs of pair words){}\n", pairs,
             reader->segments().size() > 1 ? " (summed over segments)" : "");
  const std::pair<const char*, const char*> kinds[] = {{"post", "postings + skip data"},
                                                       {"pos", "positions"},
                                                       {"dict", "term dictionary"},
                                                       {"docs", "doc store"},
                                                       {"norms", "field lengths"},
                                                       {"bloom", "Bloom filters of the dictionary keys"},
                                                       {"urls", "url tables (deletes and updates by url)"},
                                                       {"sim", "near-duplicate fingerprints"},
                                                       {"dup", "near-duplicate cluster ids"}};
  uint64_t total = 0;
  for (const auto& [ext, what] : kinds) {
    fmt::print("bytes {:<6}      {:>12}  {}\n", ext, bytes[ext], what);
    total += bytes[ext];
  }
  fmt::print("bytes index       {:>12}  postings + positions + dictionary (doc store apart)\n",
             bytes["post"] + bytes["pos"] + bytes["dict"]);
  fmt::print("bytes total       {:>12}\n", total);
  return cli::kOk;
}

int check(const std::vector<std::string>& args) {
  if (args.size() != 1) throw UsageError("check takes one index directory");
  auto reader = IndexReader::open(args[0]);
  reader->check();
  fmt::print("{}: ok, {} docs ({} deleted) in {} segment(s), every checksum and invariant verified\n", args[0],
             reader->live_count(), reader->doc_count() - reader->live_count(), reader->segments().size());
  return cli::kOk;
}

int analyze(const std::vector<std::string>& args) {
  po::options_description named("analyze options");
  named.add_options()("stopwords", po::value<std::string>()->default_value("default"), "FILE, none or default")(
      "text", po::value<std::vector<std::string>>(), "text");
  po::positional_options_description positional;
  positional.add("text", -1);
  auto vm = parse(args, named, positional);
  Analyzer analyzer = [&] {
    try {
      return Analyzer(Stopwords::from_option(vm["stopwords"].as<std::string>()));
    } catch (const std::exception& e) {
      throw UsageError(e.what());
    }
  }();
  std::string out;
  auto print_line = [&](std::string_view text) {
    out.clear();
    analyzer.for_each_term(text, [&](std::string_view t) {
      if (!out.empty()) out.push_back(' ');
      out.append(t);
    });
    out.push_back('\n');
    std::fwrite(out.data(), 1, out.size(), stdout);
  };
  if (vm.count("text")) {
    std::string text;
    for (const auto& t : vm["text"].as<std::vector<std::string>>()) text += (text.empty() ? "" : " ") + t;
    print_line(text);
  } else {
    std::string line;
    while (std::getline(std::cin, line)) print_line(line);
  }
  return cli::kOk;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef FTS_MPI_COMPANION
  cli::hand_over_distributed(argc, argv, FTS_MPI_COMPANION, kTool);
#endif
  std::signal(SIGXFSZ, SIG_IGN);  // a file-size limit becomes an error, not a kill
  std::ios::sync_with_stdio(false);
  if (argc < 2) {
    std::fputs(kUsage, stderr);
    return cli::kUsageError;
  }
  std::string command = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "build") return ingest(args, Ingest::kBuild);
    if (command == "add") return ingest(args, Ingest::kAdd);
    if (command == "update") return ingest(args, Ingest::kUpdate);
    if (command == "delete") return remove(args);
    if (command == "merge") return merge(args);
    if (command == "dupes") return dupes(args);
    if (command == "info") return info(args);
    if (command == "check") return check(args);
    if (command == "analyze") return analyze(args);
    if (command == "--help" || command == "-h") {
      std::fputs(kUsage, stdout);
      return cli::kOk;
    }
    cli::print_error(kTool, "unknown command '" + command + "'");
    std::fputs(kUsage, stderr);
    return cli::kUsageError;
  } catch (const UsageError& e) {
    cli::print_error(kTool, e.what());
    return cli::kUsageError;
  } catch (const std::bad_alloc&) {
    cli::print_error(kTool, "out of memory");
    return cli::kRuntimeError;
  } catch (const std::exception& e) {
    cli::print_error(kTool, e.what());
    return cli::kRuntimeError;
  }
}
