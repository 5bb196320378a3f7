// fts-bench: runs a query file against an index and prints the JSON lines of
// ../shared/peers/README.md (one per query, then a summary), so
// ../shared/peers/compare.py puts fts beside Lucene, Xapian and SQLite FTS5.
//   fts-bench --index DIR --queries FILE [--mode count|top10|top10-fast] [--collapse] [--reps R] [--warmup W]
//             [--warmup-s S] [--cache-mb N] [--threads N]
//   mpirun -np R fts-bench --index DIR --distributed ...   (a sharded index, rank r searching shard r)
// --distributed times each query on rank 0 from broadcast to merged answer:
// the fan-out's cost is in the figures, as a user of it would see it.
// --collapse (top10 modes) times near-duplicate collapse: the summary line
// writes mode "top10+collapse" and each query's hits left after collapsing.
// The filter cache is off by default: the peers' harnesses disable theirs
// (Lucene: setQueryCache(null)), so repetitions are not answered from bitmaps.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "common/cli.h"
#include "common/mpi_companion.h"
#include "engine/fts.h"
#ifdef FTS_WITH_MPI
#include "distributed/distributed_index.h"
#endif

namespace po = boost::program_options;
using namespace fts;

namespace {

constexpr const char* kTool = "fts-bench";

struct BenchQuery {
  std::string text;
  std::optional<Query> query;  // empty when rejected
  std::string error;
  std::vector<double> latencies_us;
  uint64_t hits = 0, collapsed_hits = 0;
  bool exact = true;  // hits is exact (top10-fast may stop early)
  std::vector<DocId> ids;  // count: all matches; top10: the best ten
};

std::vector<std::string> read_queries(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open query file");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) {  // split on \n only
    size_t b = line.find_first_not_of(" \t\r\f\v");
    if (b == std::string::npos) continue;
    size_t e = line.find_last_not_of(" \t\r\f\v");
    out.push_back(line.substr(b, e - b + 1));
  }
  return out;
}

enum class Mode { kCount, kTop10, kTop10Fast };

// Runs one query once; fills hits and ids. Index: fts::Index, or a
// DistributedIndex (every rank runs it; rank 0 gets the answer).
template <class Searchable>
void execute(const Searchable& index, BenchQuery& q, Mode mode, bool collapse, unsigned threads) {
  SearchOptions options;
  options.threads = threads;
  if (mode != Mode::kCount) {
    options.limit = 10;
    options.stored_fields = false;
    options.collapse = collapse;
    // top10-fast: the count may stop at 10, as the peers' harnesses do
    // (Lucene: TopScoreDocCollector.create(10, 10)).
    if (mode == Mode::kTop10Fast) options.total_hits_threshold = 10;
    Results r = index.search(*q.query, options);
    q.hits = r.total_hits;
    q.collapsed_hits = r.collapsed_hits;
    q.exact = r.total_hits_relation == Results::Relation::kEqual;
    q.ids.clear();
    for (const Hit& h : r.hits) q.ids.push_back(h.doc);
  } else {
    index.matching_docs(*q.query, q.ids, options);  // into the last run's buffer: no fresh pages
    q.hits = q.ids.size();
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double nearest_rank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  size_t rank = static_cast<size_t>(std::ceil(p / 100 * sorted.size()));
  return sorted[std::max<size_t>(rank, 1) - 1];
}

struct Settings {
  std::string file, mode;
  int reps = 10, warmup = 1;
  double warmup_s = 2;
  bool collapse = false;
  unsigned threads = 1;
};

// The run over one index or a distributed one. root: the rank that reads
// the queries, times and prints (the only one without MPI). Ranks decide
// together through share(), which hands rank 0's flag or text to all.
template <class Searchable, class Share>
int bench(const Searchable& index, const Settings& set, bool root, Share&& share) {
  const std::string& mode = set.mode;
  const bool collapse = set.collapse;
  const unsigned threads = set.threads;
  const int reps = set.reps, warmup = set.warmup;
  const double warmup_s = set.warmup_s;
  const Mode run_mode = mode == "count" ? Mode::kCount : mode == "top10" ? Mode::kTop10 : Mode::kTop10Fast;
  const bool top10 = run_mode != Mode::kCount;
  const std::string mode_name = collapse ? mode + "+collapse" : mode;
  std::string lines;
  if (root) {
    for (const auto& text : read_queries(set.file)) lines += text + "\n";
  }
  share(lines);
  std::vector<BenchQuery> queries;
  std::vector<std::string> texts;
  for (size_t at = 0; at < lines.size();) {
    const size_t nl = lines.find('\n', at);
    texts.push_back(lines.substr(at, nl - at));
    at = nl + 1;
  }
  for (auto& text : texts) {
    BenchQuery q;
    q.text = std::move(text);
    try {
      q.query = index.parse(q.text);  // parsing and analysis are not timed
    } catch (const QuerySyntaxError& e) {
      q.error = e.what();
    }
    queries.push_back(std::move(q));
  }
  int passes = 0;
  double start = cli::now_seconds();
  auto more_warmup = [&] {
    std::string go = root && (passes < warmup || cli::now_seconds() - start < warmup_s) ? "1" : "0";
    share(go);
    return go == "1";
  };
  while (more_warmup()) {
    for (auto& q : queries) {
      if (q.query && !q.query->matches_nothing()) execute(index, q, run_mode, collapse, threads);
    }
    ++passes;
    if (queries.empty()) break;
  }
  std::vector<double> medians;
  size_t errors = 0;
  auto print = [root](const cli::Json& j) {
    if (!root) return;
    const std::string line = cli::json_line(j);
    std::fwrite(line.data(), 1, line.size(), stdout);
  };
  for (auto& q : queries) {
    cli::Json out = {{"engine", "fts"}, {"mode", mode_name}, {"query", q.text}};
    if (!q.query) {
      ++errors;
      out["hits"] = nullptr;
      out[top10 ? "top" : "docs_sha1"] = nullptr;
      out["latency_us"] = nullptr;
      out["error"] = q.error;
      print(out);
      continue;
    }
    double latency = 0;
    q.hits = 0;
    q.ids.clear();
    if (!q.query->matches_nothing()) {
      for (int r = 0; r < reps; ++r) {
        double t0 = cli::now_seconds();
        execute(index, q, run_mode, collapse, threads);
        q.latencies_us.push_back((cli::now_seconds() - t0) * 1e6);
      }
      latency = median(q.latencies_us);
    }
    medians.push_back(latency);
    out["hits"] = q.hits;
    if (collapse) out["collapsed_hits"] = q.collapsed_hits;
    if (top10) {
      if (run_mode == Mode::kTop10Fast) out["hits_relation"] = q.exact ? "eq" : "gte";
      out["top"] = q.ids;
    } else {
      out["docs_sha1"] = cli::docs_sha1(q.ids);
    }
    out["latency_us"] = cli::rounded(latency, 3);
    out["error"] = nullptr;
    print(out);
  }
  std::vector<double> sorted = medians;
  std::sort(sorted.begin(), sorted.end());
  double total = 0;
  for (double m : medians) total += m;
  print({{"engine", "fts"},
         {"mode", mode_name},
         {"queries", queries.size()},
         {"errors", errors},
         {"reps", reps},
         {"warmup_passes", passes},
         {"total_latency_us", cli::rounded(total, 3)},
         {"p50_us", cli::rounded(nearest_rank(sorted, 50), 3)},
         {"p95_us", cli::rounded(nearest_rank(sorted, 95), 3)}});
  return cli::kOk;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef FTS_MPI_COMPANION
  cli::hand_over_distributed(argc, argv, FTS_MPI_COMPANION, kTool);
#endif
  po::options_description named("options");
  named.add_options()("help,h", "this help")("index", po::value<std::string>(), "index directory")(
      "queries", po::value<std::string>(), "query file, one query per line")(
      "mode", po::value<std::string>()->default_value("count"), "count, top10 (exact count) or top10-fast (count may stop early)")(
      "reps", po::value<int>()->default_value(10), "timed repetitions (median reported)")(
      "warmup", po::value<int>()->default_value(1), "untimed passes over all queries first, at least")(
      "warmup-s", po::value<double>()->default_value(2.0), "and at least this many seconds of passes")(
      "cache-mb", po::value<size_t>()->default_value(0), "filter cache size (0: off, as in the peers' harnesses)")(
      "collapse", "top10 modes: collapse near-duplicates (SearchOptions::collapse)")(
      "threads", po::value<unsigned>()->default_value(1), "segments searched at once per query")(
      "distributed", "under mpirun: rank r searches DIR/shard-r of a sharded index, rank 0 times and prints");
  Settings set;
  std::string dir;
  size_t cache_mb = 0;
  bool distributed = false;
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, named), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << "usage: fts-bench --index DIR --queries FILE [options]\n" << named;
      return cli::kOk;
    }
    if (!vm.count("index") || !vm.count("queries")) throw po::error("--index and --queries are required");
    dir = vm["index"].as<std::string>();
    set.file = vm["queries"].as<std::string>();
    set.mode = vm["mode"].as<std::string>();
    set.reps = vm["reps"].as<int>();
    set.warmup = vm["warmup"].as<int>();
    set.warmup_s = vm["warmup-s"].as<double>();
    cache_mb = vm["cache-mb"].as<size_t>();
    set.collapse = vm.count("collapse") > 0;
    if (set.collapse && set.mode == "count") throw po::error("--collapse needs --mode top10 or top10-fast");
    set.threads = vm["threads"].as<unsigned>();
    if (set.mode != "count" && set.mode != "top10" && set.mode != "top10-fast")
      throw po::error("--mode takes count, top10 or top10-fast");
    if (set.reps < 1 || set.warmup < 0 || set.warmup_s < 0) throw po::error("--reps must be >= 1, warm-ups >= 0");
    if (set.threads < 1) throw po::error("--threads must be at least 1");
    distributed = vm.count("distributed") > 0;
#ifndef FTS_WITH_MPI
    if (distributed) throw po::error("--distributed needs MPI, and this fts-bench was built without it (cmake -DFTS_MPI=ON)");
#endif
  } catch (const po::error& e) {
    cli::print_error(kTool, e.what());
    return cli::kUsageError;
  }

  try {
    if (distributed) {
#ifdef FTS_WITH_MPI
      int no_argc = 0;
      char** no_argv = nullptr;
      MpiSession mpi(no_argc, no_argv);
      const Comm comm(MPI_COMM_WORLD);
      try {
        DistributedIndex index(comm, dir, cache_mb << 20);
        return bench(index, set, comm.is_root(), [&](std::string& text) { comm.broadcast(text); });
      } catch (const std::exception& e) {
        if (comm.is_root()) cli::print_error(kTool, e.what());
        return cli::kRuntimeError;
      }
#endif
    }
    Index index = Index::open(dir, cache_mb << 20);
    return bench(index, set, true, [](std::string&) {});
  } catch (const std::bad_alloc&) {
    cli::print_error(kTool, "out of memory");
  } catch (const std::exception& e) {
    cli::print_error(kTool, e.what());
  }
  return cli::kRuntimeError;
}
