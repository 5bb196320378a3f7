#include "serve/api.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "engine/fts.h"
#include "serve/assets.h"
#include "serve/json_response.h"
#include "serve/url.h"
#include "serve/write_api.h"

namespace fts::serve {

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double round3(double ms) { return std::round(ms * 1000.0) / 1000.0; }

bool is_word_byte(unsigned char c) { return c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

// Words of a query as the analyzer will see them, at most: runs of letters,
// digits and non-ASCII bytes, the operators AND, OR and NOT excluded.
size_t count_words(std::string_view q) {
  size_t words = 0;
  for (size_t i = 0; i < q.size();) {
    if (!is_word_byte(static_cast<unsigned char>(q[i]))) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < q.size() && is_word_byte(static_cast<unsigned char>(q[end]))) ++end;
    std::string_view w = q.substr(i, end - i);
    if (w != "AND" && w != "OR" && w != "NOT") ++words;
    i = end;
  }
  return words;
}

}  // namespace

struct Api::Params {
  std::string q;
  size_t limit = 10, offset = 0;
  SearchOptions::Sort sort = SearchOptions::Sort::kScore;
  // As fts-search --total-hits: exact up to this many hits, a lower bound
  // past it (the top hits stay exact); "exact" counts them all.
  uint64_t total_hits_threshold = 1000;
  bool collapse = false;  // collapse=1: the best hit of each near-duplicate cluster
};

Api::Api(IndexHolder& index, const Metrics& metrics, ApiLimits limits, const WriteApi* writes)
    : index_(index), metrics_(metrics), limits_(limits), writes_(writes), started_(now_ms()) {}

ApiResponse Api::error(unsigned status, std::string_view message) {
  return json_response(status, json{{"error", message}, {"status", status}});
}

namespace {

// Reads the parameters an endpoint takes; anything else, a repeat, a bad
// number or a bound passed is a 400 that names the parameter.
std::optional<ApiResponse> read_params(const Target& target, std::initializer_list<std::string_view> allowed,
                                       const ApiLimits& limits, auto& p) {
  bool seen_q = false, seen_limit = false, seen_offset = false, seen_sort = false, seen_total = false,
       seen_collapse = false;
  auto number = [&](const std::string& key, const std::string& value, size_t max, size_t& out,
                    bool& seen) -> std::optional<ApiResponse> {
    if (seen) return Api::error(400, key + " given twice");
    seen = true;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
    if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
      return Api::error(400, key + " must be a whole number, not '" + value + "'");
    }
    if (out > max) return Api::error(400, key + " is at most " + std::to_string(max));
    return std::nullopt;
  };
  for (const auto& [key, value] : target.params) {
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || key == a;
    if (!ok) return Api::error(400, "unknown parameter '" + key + "'");
    if (key == "q") {
      if (seen_q) return Api::error(400, "q given twice");
      seen_q = true;
      p.q = value;
    } else if (key == "limit") {
      if (auto e = number(key, value, limits.max_limit, p.limit, seen_limit)) return e;
    } else if (key == "offset") {
      if (auto e = number(key, value, limits.max_offset, p.offset, seen_offset)) return e;
    } else if (key == "sort") {
      if (seen_sort) return Api::error(400, "sort given twice");
      seen_sort = true;
      if (value != "score" && value != "doc") return Api::error(400, "sort is score or doc, not '" + value + "'");
      p.sort = value == "doc" ? SearchOptions::Sort::kDocId : SearchOptions::Sort::kScore;
    } else if (key == "collapse") {
      if (seen_collapse) return Api::error(400, "collapse given twice");
      seen_collapse = true;
      if (value != "0" && value != "1") return Api::error(400, "collapse is 0 or 1, not '" + value + "'");
      p.collapse = value == "1";
    } else if (key == "total_hits") {
      if (seen_total) return Api::error(400, "total_hits given twice");
      seen_total = true;
      if (value == "exact") {
        p.total_hits_threshold = SearchOptions::kExactHitCount;
      } else {
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), p.total_hits_threshold);
        if (value.empty() || ec != std::errc() || end != value.data() + value.size()) {
          return Api::error(400, "total_hits is a whole number or exact, not '" + value + "'");
        }
      }
    }
  }
  bool wants_q = false;
  for (std::string_view a : allowed) wants_q = wants_q || a == "q";
  if (!wants_q) return std::nullopt;
  if (!seen_q) return Api::error(400, "missing parameter q");
  size_t bad = 0;
  if (!valid_utf8(p.q, bad)) return Api::error(400, "q is not valid UTF-8 (byte " + std::to_string(bad) + ")");
  if (p.q.size() > limits.max_query_bytes) {
    return Api::error(400, "q is longer than " + std::to_string(limits.max_query_bytes) + " bytes");
  }
  if (count_words(p.q) > limits.max_query_words) {
    return Api::error(400, "q has more than " + std::to_string(limits.max_query_words) + " words");
  }
  return std::nullopt;
}

// The engine stops a search past its budget (whole milliseconds, at least
// one); a shorter budget is also checked when the search returns.
std::chrono::milliseconds engine_budget(double ms) {
  return std::chrono::milliseconds(std::max<int64_t>(1, static_cast<int64_t>(std::ceil(ms))));
}

// The writer's state (null on a read-only server).
json writer_stats(const WriteApi* writes) {
  if (!writes) return nullptr;
  WriterStatus w = writes->status();
  return {{"uncommitted_adds", w.uncommitted_adds}, {"uncommitted_deletes", w.uncommitted_deletes}, {"next_doc_id", w.next_doc_id}};
}

ApiResponse over_budget(const char* what, double budget_ms) {
  return Api::error(504, std::string("the ") + what + " took longer than its budget of " + std::to_string(budget_ms) + " ms");
}

}  // namespace

ApiResponse Api::handle(const ApiRequest& request) const {
  Target target;
  if (std::string why = parse_target(request.target, target); !why.empty()) return error(400, why);
  const std::string& path = target.path;
  const bool get = request.method == "GET" || request.method == "HEAD";

  auto not_allowed = [&] {
    ApiResponse r = error(405, std::string(request.method) + " is not allowed on " + path);
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  };
  const bool one_doc = path.starts_with("/docs/");

  try {
    // /docs and /commit take writes only; /docs/{id} is read with GET too.
    if (path == "/docs" || path == "/commit" || (one_doc && !get)) {
      if (writes_) return writes_->handle(request, target);  // failures (IoError...) are the 500 below
      ApiResponse r = error(405, std::string(request.method) + " is not allowed on " + path +
                                     ": the server is read-only (fts-serve --writable --token-file FILE takes writes)");
      r.headers.emplace_back("Allow", one_doc ? "GET, HEAD" : "");
      return r;
    }
    if (path == "/search" || path == "/count" || path == "/explain") {
      if (!get) return not_allowed();
      Params p;
      std::initializer_list<std::string_view> allowed = {"q"};
      std::initializer_list<std::string_view> search_params = {"q", "limit", "offset", "sort", "total_hits", "collapse"};
      if (path == "/search") allowed = search_params;
      if (auto e = read_params(target, allowed, limits_, p)) return *e;
      if (path == "/search") return search(p);
      if (path == "/count") return count(p);
      return explain(p);
    }
    if (one_doc) {
      if (!target.params.empty()) return error(400, "unknown parameter '" + target.params[0].first + "'");
      return document(std::string_view(path).substr(6));
    }
    if (path == "/stats" || path == "/health") {
      if (!get) return not_allowed();
      if (!target.params.empty()) return error(400, "unknown parameter '" + target.params[0].first + "'");
      return path == "/stats" ? stats() : health();
    }
    Asset asset;
    if (find_asset(path, asset)) {
      if (!get) return not_allowed();
      ApiResponse r;
      r.content_type = asset.content_type;
      r.body = asset.body;
      // The page runs only its own script and style: even a bug that put
      // document text into HTML could not run it.
      r.headers.emplace_back("Content-Security-Policy",
                             "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                             "img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
      r.headers.emplace_back("Cache-Control", "no-cache");
      return r;
    }
    return error(404, "no such endpoint: " + path);
  } catch (const QuerySyntaxError& e) {
    Params p;
    (void)read_params(target, {"q", "limit", "offset", "sort", "total_hits", "collapse"}, limits_, p);
    return syntax_error_response(p.q, e);
  } catch (const std::bad_alloc&) {
    return error(503, "out of memory");
  } catch (const std::exception& e) {
    return error(500, e.what());
  }
}

ApiResponse Api::search(const Params& p) const {
  const double start = now_ms();
  std::shared_ptr<const Index> index = index_.current();
  SearchOptions options;
  options.limit = p.limit;
  options.offset = p.offset;
  options.sort = p.sort;
  options.total_hits_threshold = p.total_hits_threshold;
  options.collapse = p.collapse;
  options.time_budget = engine_budget(limits_.time_budget_ms);
  Results r;
  try {
    r = index->search(index->parse(p.q), options);
  } catch (const TimeoutError&) {
    return over_budget("search", limits_.time_budget_ms);
  }
  const double took = now_ms() - start;
  if (took > limits_.time_budget_ms) return over_budget("search", limits_.time_budget_ms);
  json hits = json::array();
  for (size_t i = 0; i < r.hits.size(); ++i) {
    const Hit& h = r.hits[i];
    json spans = json::array();
    for (const Highlight& s : h.highlights) spans.push_back({s.begin, s.end});
    hits.push_back({{"rank", p.offset + i + 1},
                    {"doc", h.doc},
                    {"score", h.score},
                    {"title", h.title},
                    {"url", h.url},
                    {"snippet", h.snippet},
                    {"highlights", std::move(spans)}});
    if (p.collapse) hits.back()["duplicates"] = h.duplicates;
  }
  json body{{"query", p.q},
            {"total_hits", r.total_hits},
            {"total_hits_relation", r.total_hits_relation == Results::Relation::kEqual ? "eq" : "gte"},
            {"took_ms", round3(took)},
            {"limit", p.limit},
            {"offset", p.offset},
            {"hits", std::move(hits)}};
  if (p.collapse) body["collapsed_hits"] = r.collapsed_hits;
  return json_response(200, std::move(body));
}

ApiResponse Api::count(const Params& p) const {
  const double start = now_ms();
  std::shared_ptr<const Index> index = index_.current();
  SearchOptions options;
  options.time_budget = engine_budget(limits_.time_budget_ms);
  uint64_t n = 0;
  try {
    n = index->count(index->parse(p.q), options);
  } catch (const TimeoutError&) {
    return over_budget("count", limits_.time_budget_ms);
  }
  const double took = now_ms() - start;
  if (took > limits_.time_budget_ms) return over_budget("count", limits_.time_budget_ms);
  return json_response(200, json{{"query", p.q}, {"total_hits", n}, {"total_hits_relation", "eq"}, {"took_ms", round3(took)}});
}

ApiResponse Api::explain(const Params& p) const {
  std::shared_ptr<const Index> index = index_.current();
  Query parsed = index->parse(p.q);
  return json_response(200, json{{"query", p.q}, {"parsed", parsed.to_string()}, {"plan", index->explain(p.q)}});
}

ApiResponse Api::document(std::string_view id_text) const {
  DocId id = 0;
  auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
  if (id_text.empty() || ec != std::errc() || end != id_text.data() + id_text.size()) {
    return error(404, "no document '" + std::string(id_text) + "' (ids are whole numbers)");
  }
  std::shared_ptr<const Index> index = index_.current();
  Document d;
  try {
    d = index->document(id);
  } catch (const ArgumentError&) {  // never given, or deleted
    return error(404, "no document " + std::to_string(id));
  }
  return json_response(200, json{{"doc", id}, {"title", d.title}, {"url", d.url}, {"abstract", d.abstract}});
}

ApiResponse Api::stats() const {
  std::shared_ptr<const Index> index = index_.current();
  CacheStats c = index->cache_stats();
  LatencySummary l = metrics_.latency();
  return json_response(
      200, json{{"docs", index->doc_count()},
                // The public API has no segment count: the engine's tools' access.
                {"segments", InternalAccess::reader(*index).segments().size()},
                {"generation", index->generation()},
                {"writer", writer_stats(writes_)},
                {"reloads", index_.reloads()},
                {"uptime_s", round3((now_ms() - started_) / 1000.0)},
                {"filter_cache",
                 {{"hits", c.hits}, {"misses", c.misses}, {"entries", c.entries}, {"bytes", c.bytes},
                  {"capacity_bytes", c.capacity_bytes}}},
                {"requests",
                 {{"total", metrics_.requests()},
                  {"2xx", metrics_.by_class(2)},
                  {"3xx", metrics_.by_class(3)},
                  {"4xx", metrics_.by_class(4)},
                  {"5xx", metrics_.by_class(5)}}},
                {"connections", {{"open", metrics_.open_connections()}, {"rejected", metrics_.rejected_connections()}}},
                {"latency_ms",
                 {{"count", l.count}, {"p50", round3(l.p50_ms)}, {"p90", round3(l.p90_ms)}, {"p99", round3(l.p99_ms)},
                  {"max", round3(l.max_ms)}}}});
}

ApiResponse Api::health() const {
  if (draining_.load(std::memory_order_relaxed)) return json_response(503, json{{"status", "draining"}});
  std::shared_ptr<const Index> index = index_.current();
  return json_response(200, json{{"status", "ok"}, {"docs", index->doc_count()}, {"generation", index->generation()}});
}

}  // namespace fts::serve
