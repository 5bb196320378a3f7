// fts-search: answer queries over an index.
//   fts-search --index DIR [--limit N] [--offset N] [--sort score|doc] [--total-hits N|exact] [--threads N] [--count] [--json]
//              [--collapse] [--explain] [--stats] [QUERY]
//   mpirun -np R fts-search --index DIR --distributed [options] [QUERY]
// --distributed: rank r searches DIR/shard-r of a sharded index (fts-index
// build --distributed), rank 0 reads the queries and prints the answers,
// which equal those of one index over all the docs.
// --collapse keeps the best hit of each near-duplicate cluster ("+N similar"
// beside it) and counts the hits left after collapsing.
// Without QUERY it answers one query per stdin line with the index kept open.
// Hit counts are exact up to --total-hits (default 1000, as Lucene's
// default threshold): a person wants the best hits at once and "1,000+ hits"
// says enough; beyond that the ranking skips docs that cannot make the top,
// and the count printed is a lower bound. --count is always exact.
#include <cctype>
#include <iostream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <fmt/core.h>

#include "common/cli.h"
#include "common/mpi_companion.h"
#include "engine/fts.h"
#ifdef FTS_WITH_MPI
#include "distributed/distributed_index.h"
#endif

namespace po = boost::program_options;
using namespace fts;

namespace {

constexpr const char* kTool = "fts-search";

struct Settings {
  SearchOptions search;
  bool count = false, json = false, explain = false, stats = false, color = false;
};

std::string marked(const Hit& hit, bool color) {
  if (!color) return hit.snippet;
  std::string out;
  size_t at = 0;
  for (const Highlight& h : hit.highlights) {
    out += hit.snippet.substr(at, h.begin - at);
    out += "\x1b[1;31m" + hit.snippet.substr(h.begin, h.end - h.begin) + "\x1b[0m";
    at = h.end;
  }
  return out + hit.snippet.substr(at);
}

void print_json(const std::string& query, const Results& r, double ms, const Settings& s, const Index& index) {
  cli::Json out = {{"query", query},
                   {"total_hits", r.total_hits},
                   {"total_hits_relation", r.total_hits_relation == Results::Relation::kEqual ? "eq" : "gte"},
                   {"elapsed_ms", cli::rounded(ms, 3)}};
  if (s.search.collapse) out["collapsed_hits"] = r.collapsed_hits;
  if (!s.count) {
    cli::Json hits = cli::Json::array();
    for (size_t i = 0; i < r.hits.size(); ++i) {
      const Hit& h = r.hits[i];
      hits.push_back({{"rank", s.search.offset + i + 1},
                      {"doc", h.doc},
                      {"score", cli::rounded(h.score, 4)},
                      {"title", h.title},
                      {"url", h.url},
                      {"snippet", h.snippet}});
      if (s.search.collapse) hits.back()["duplicates"] = h.duplicates;
    }
    out["hits"] = std::move(hits);
  }
  if (s.stats) {
    CacheStats c = index.cache_stats();
    out["cache"] = {{"hits", c.hits},
                    {"misses", c.misses},
                    {"entries", c.entries},
                    {"bytes", c.bytes},
                    {"capacity_bytes", c.capacity_bytes}};
  }
  const std::string line = cli::json_line(out);
  std::fwrite(line.data(), 1, line.size(), stdout);
}

void print_text(const Results& r, double ms, const Settings& s, const Index& index) {
  if (s.count) {
    fmt::print("{}\n", r.total_hits);
  } else {
    if (r.total_hits_relation == Results::Relation::kEqual) {
      fmt::print("{} hit{} ({:.3f} ms)\n", r.total_hits, r.total_hits == 1 ? "" : "s", ms);
    } else {
      fmt::print("{}+ hits ({:.3f} ms)\n", cli::with_thousands(r.total_hits), ms);
    }
    if (s.search.collapse) fmt::print("{} after collapsing near-duplicates\n", cli::with_thousands(r.collapsed_hits));
    for (size_t i = 0; i < r.hits.size(); ++i) {
      const Hit& h = r.hits[i];
      const std::string similar = h.duplicates ? fmt::format("  (+{} similar)", h.duplicates) : "";
      fmt::print("{:>3}. {:.3f}  {}{}\n     {}\n", s.search.offset + i + 1, h.score, h.title, similar, h.url);
      if (!h.snippet.empty()) fmt::print("     {}\n", marked(h, s.color));
    }
  }
  if (s.stats) {
    CacheStats c = index.cache_stats();
    fmt::print("cache: {} hits, {} misses, {} entries, {} of {} bytes\n", c.hits, c.misses, c.entries, c.bytes,
               c.capacity_bytes);
  }
}

// The answer to one query from a local index.
Results run(const Index& index, const std::string& query, const Settings& s) {
  Query q = index.parse(query);
  if (s.count && s.search.collapse) {
    SearchOptions counting = s.search;
    counting.limit = 0;
    return index.search(q, counting);
  }
  Results r;
  if (s.count) {
    r.total_hits = index.count(q, s.search);
  } else {
    r = index.search(q, s.search);
  }
  return r;
}

#ifdef FTS_WITH_MPI
// The same from every rank's shard; rank 0 holds the answer.
Results run(const DistributedIndex& index, const std::string& query, const Settings& s) {
  const Query q = index.parse(query);
  SearchOptions options = s.search;
  if (s.count) options.limit = 0;
  Results r;
  if (s.count && !s.search.collapse) {
    r.total_hits = index.count(q, options);
  } else {
    r = index.search(q, options);
  }
  return r;
}
#endif

// Answers one query; returns its exit code. quiet: a rank other than 0 of
// a distributed search, which prints nothing.
template <class Searchable>
int answer(const Searchable& searchable, const Index& local, const std::string& query, const Settings& s,
           bool quiet = false) {
  try {
    double start = cli::now_seconds();
    Results r = run(searchable, query, s);
    double ms = (cli::now_seconds() - start) * 1e3;
    if (quiet) return cli::kOk;
    if (s.explain) fmt::print("{}", local.explain(query));
    if (s.json) {
      print_json(query, r, ms, s, local);
    } else {
      print_text(r, ms, s, local);
    }
    std::fflush(stdout);
    return cli::kOk;
  } catch (const QuerySyntaxError& e) {
    if (quiet) return cli::kUsageError;
    cli::print_error(kTool, fmt::format("syntax error at position {}: {}", e.position(), e.what()));
    fmt::print(stderr, "  {}\n  {}^\n", query, std::string(std::min(e.position(), query.size()), ' '));
    return cli::kUsageError;
  }
}

bool is_blank(const std::string& line) { return line.find_first_not_of(" \t\r\n\f\v") == std::string::npos; }

// The next query line of stdin, without its \r; false at the end.
bool next_query(std::string& line) {
  while (std::getline(std::cin, line)) {
    if (is_blank(line)) continue;
    if (line.back() == '\r') line.pop_back();
    return true;
  }
  return false;
}

#ifdef FTS_WITH_MPI
// Rank 0 reads the queries (mpirun gives stdin to rank 0 alone) and every
// rank answers each one.
int answer_distributed(const std::string& dir, const std::string& query, bool from_stdin, const Settings& s) {
  int argc = 0;
  char** argv = nullptr;
  MpiSession mpi(argc, argv);
  const Comm comm(MPI_COMM_WORLD);
  try {
    DistributedIndex index(comm, dir);
    const bool quiet = !comm.is_root();
    int status = cli::kOk;
    std::string text = query;
    bool more = true;
    while (index.share_query(text, comm.is_root() && (from_stdin ? next_query(text) : more))) {
      if (answer(index, index.shard(), text, s, quiet) != cli::kOk) status = cli::kUsageError;
      more = false;
    }
    return status;
  } catch (const std::exception& e) {
    if (comm.is_root()) cli::print_error(kTool, e.what());
    return cli::kRuntimeError;
  }
}
#endif

}  // namespace

int main(int argc, char** argv) {
#ifdef FTS_MPI_COMPANION
  cli::hand_over_distributed(argc, argv, FTS_MPI_COMPANION, kTool);
#endif
  po::options_description named("options");
  named.add_options()("help,h", "this help")("index", po::value<std::string>(), "index directory")(
      "limit", po::value<size_t>()->default_value(10), "hits to print")(
      "offset", po::value<size_t>()->default_value(0), "hits to skip")(
      "sort", po::value<std::string>()->default_value("score"), "score or doc")(
      "total-hits", po::value<std::string>()->default_value("1000"),
      "count hits exactly up to N, then a lower bound (N+ hits) and a faster ranking; exact: always exact")(
      "threads", po::value<unsigned>()->default_value(1), "segments searched at once")(
      "count", "print only the number of hits")("json", "one JSON document per query")(
      "collapse", "keep the best hit of each near-duplicate cluster")("explain", "print the query plan")("stats", "print filter-cache statistics")(
      "distributed", "under mpirun: rank r searches DIR/shard-r of a sharded index, rank 0 prints");
  Settings s;
  std::string dir, query;
  bool from_stdin = true, distributed = false;
  try {
    // Query words may start with '-' (`-cat` is a query, not an option): only
    // the long options above (and -h) are options, everything else is query.
    std::vector<std::string> options, words;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "--") {
        words.insert(words.end(), argv + i + 1, argv + argc);
        break;
      }
      bool option = arg == "-h" || (arg.starts_with("--") && named.find_nothrow(arg.substr(2, arg.find('=') - 2), false));
      if (!option && arg.starts_with("--") && arg.size() > 2 && std::isalpha(static_cast<unsigned char>(arg[2]))) {
        throw po::error("unrecognised option '" + arg + "' (put -- before a query that starts with --)");
      }
      if (!option) {
        words.push_back(arg);
        continue;
      }
      options.push_back(arg);
      const auto* d = named.find_nothrow(arg.substr(2, arg.find('=') - 2), false);
      if (d && d->semantic()->max_tokens() > 0 && arg.find('=') == std::string::npos && i + 1 < argc) {
        options.push_back(argv[++i]);
      }
    }
    po::variables_map vm;
    po::store(po::command_line_parser(options).options(named).run(), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << "usage: fts-search --index DIR [options] [QUERY]\n" << named;
      return cli::kOk;
    }
    if (!vm.count("index")) throw po::error("--index DIR is required");
    dir = vm["index"].as<std::string>();
    s.search.limit = vm["limit"].as<size_t>();
    s.search.offset = vm["offset"].as<size_t>();
    std::string sort = vm["sort"].as<std::string>();
    if (sort != "score" && sort != "doc") throw po::error("--sort takes score or doc");
    s.search.sort = sort == "doc" ? SearchOptions::Sort::kDocId : SearchOptions::Sort::kScore;
    const std::string total = vm["total-hits"].as<std::string>();
    if (total == "exact") {
      s.search.total_hits_threshold = SearchOptions::kExactHitCount;
    } else {
      size_t used = 0;
      unsigned long long n = 0;
      try {
        n = std::stoull(total, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != total.size() || total[0] == '-')
        throw po::error("--total-hits takes a number or exact, not '" + total + "'");
      s.search.total_hits_threshold = n;
    }
    s.search.threads = vm["threads"].as<unsigned>();
    if (s.search.threads == 0) throw po::error("--threads must be at least 1");
    s.count = vm.count("count");
    s.search.collapse = vm.count("collapse") > 0;
    s.json = vm.count("json");
    s.explain = vm.count("explain");
    s.stats = vm.count("stats");
    s.color = cli::stdout_is_terminal() && !s.json;
    distributed = vm.count("distributed") > 0;
#ifndef FTS_WITH_MPI
    if (distributed) throw po::error("--distributed needs MPI, and this fts-search was built without it (cmake -DFTS_MPI=ON)");
#endif
    if (!words.empty()) {
      from_stdin = false;
      for (const auto& w : words) query += (query.empty() ? "" : " ") + w;
    }
  } catch (const po::error& e) {
    cli::print_error(kTool, e.what());
    return cli::kUsageError;
  }

#ifdef FTS_WITH_MPI
  if (distributed) return answer_distributed(dir, query, from_stdin, s);
#endif
  try {
    Index index = Index::open(dir);
    if (!from_stdin) return answer(index, index, query, s);
    int status = cli::kOk;
    std::string line;
    while (next_query(line)) {
      if (answer(index, index, line, s) != cli::kOk) status = cli::kUsageError;
    }
    return status;
  } catch (const std::bad_alloc&) {
    cli::print_error(kTool, "out of memory");
  } catch (const std::exception& e) {
    cli::print_error(kTool, e.what());
  }
  return cli::kRuntimeError;
}
