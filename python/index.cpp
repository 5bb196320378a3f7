// fts.Index (searching an index) with its Query, Results, Hit, ExplainNode
// and CancelToken. Every call that reads the index runs with the GIL
// released, so Python threads search one Index in parallel (fts::Index is
// thread-safe).
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "bindings.h"
#include "fts/index.h"

namespace fts_python {
namespace {

// Lets another thread stop a search: search(..., cancel=token), then
// token.cancel() from anywhere; the search raises CancelledError.
class CancelToken {
 public:
  void cancel() { flag_.store(true); }
  void reset() { flag_.store(false); }
  bool cancelled() const { return flag_.load(); }
  const std::atomic<bool>* flag() const { return &flag_; }

 private:
  std::atomic<bool> flag_{false};
};

// A query argument: a str, parsed by the index with the GIL released, or a
// Query parsed before.
struct QueryArg {
  std::optional<std::string> text;
  std::optional<fts::Query> parsed;

  fts::Query get(const fts::Index& index) const { return parsed ? *parsed : index.parse(*text); }
  const std::string* text_or_null() const { return text ? &*text : nullptr; }
};

QueryArg query_arg(py::handle q) {
  if (py::isinstance<fts::Query>(q)) return {std::nullopt, q.cast<fts::Query>()};
  if (py::isinstance<py::str>(q)) return {q.cast<std::string>(), std::nullopt};
  throw py::type_error("a query is a str or an fts.Query, not " +
                       std::string(py::str(py::type::handle_of(q).attr("__name__"))));
}

size_t non_negative(const char* name, long long v) {
  if (v < 0) throw fts::ArgumentError(name, "must be 0 or more, not " + std::to_string(v));
  return static_cast<size_t>(v);
}

// Seconds (int or float) or a datetime.timedelta; None or 0: no budget.
std::chrono::milliseconds time_budget(py::handle budget) {
  if (budget.is_none()) return std::chrono::milliseconds{0};
  double seconds = 0;
  if (py::hasattr(budget, "total_seconds")) {
    seconds = budget.attr("total_seconds")().cast<double>();
  } else if (py::isinstance<py::float_>(budget) || py::isinstance<py::int_>(budget)) {
    seconds = budget.cast<double>();
  } else {
    throw py::type_error("time_budget is seconds (int or float) or a datetime.timedelta");
  }
  if (!(seconds >= 0 && seconds <= 1e9)) throw fts::ArgumentError("time_budget", "must be 0 to 1e9 seconds");
  // A budget under a millisecond is one millisecond, not none.
  return std::chrono::milliseconds{static_cast<int64_t>(std::ceil(seconds * 1000))};
}

// The options every call shares: the time budget and the cancel flag. The
// token is kept alive by the caller's reference for the whole call.
fts::SearchOptions limits(py::handle budget, const std::shared_ptr<CancelToken>& cancel) {
  fts::SearchOptions o;
  o.time_budget = time_budget(budget);
  o.cancel = cancel ? cancel->flag() : nullptr;
  return o;
}

fts::SearchOptions::Sort sort_of(const std::string& sort) {
  if (sort == "score") return fts::SearchOptions::Sort::kScore;
  if (sort == "doc") return fts::SearchOptions::Sort::kDocId;
  throw fts::ArgumentError("sort", "must be 'score' or 'doc', not '" + sort + "'");
}

// The hits of a Results as Hit objects that refer into it (no copies) and
// keep it alive.
py::list hits_of(const py::object& results) {
  auto& r = results.cast<fts::Results&>();
  py::list hits;
  for (fts::Hit& h : r.hits) hits.append(py::cast(&h, py::return_value_policy::reference_internal, results));
  return hits;
}

// (start, end) of each highlight in code points of Hit.snippet, so that
// hit.snippet[start:end] is the matched word.
py::list highlights_of(const fts::Hit& h) {
  py::list out;
  for (const fts::Highlight& span : h.highlights) {
    const size_t begin = std::min(span.begin, h.snippet.size());
    const size_t end = std::min(span.end, h.snippet.size());
    const size_t start = py::len(to_str(std::string_view(h.snippet).substr(0, begin)));
    out.append(py::make_tuple(start, start + py::len(to_str(std::string_view(h.snippet).substr(begin, end - begin)))));
  }
  return out;
}

void bind_results(py::module_& m) {
  py::class_<fts::Hit>(m, "Hit", "One hit: doc id, BM25 score and (with stored_fields) title, url and snippet.")
      .def_readonly("doc", &fts::Hit::doc)
      .def_readonly("score", &fts::Hit::score)
      .def_property_readonly("title", [](const fts::Hit& h) { return to_str(h.title); })
      .def_property_readonly("url", [](const fts::Hit& h) { return to_str(h.url); })
      .def_property_readonly("snippet", [](const fts::Hit& h) { return to_str(h.snippet); })
      .def_property_readonly("highlights", &highlights_of,
                             "(start, end) of each match in snippet, in characters: snippet[start:end]")
      .def_readonly("duplicates", &fts::Hit::duplicates,
                    "with collapse=True: the hits of this hit's near-duplicate cluster folded into it")
      .def("__repr__", [](const fts::Hit& h) {
        return py::str("fts.Hit(doc={}, score={:.4f}, title={!r})").format(h.doc, h.score, to_str(h.title));
      });

  py::class_<fts::Results>(m, "Results",
                           "Hits of one search (iterable, indexable) and the total number of matching docs.")
      .def_readonly("total_hits", &fts::Results::total_hits)
      .def_property_readonly(
          "total_hits_relation",
          [](const fts::Results& r) { return r.total_hits_relation == fts::Results::Relation::kEqual ? "eq" : "gte"; },
          "'eq': total_hits is exact; 'gte': a lower bound (total_hits_threshold)")
      .def_readonly("collapsed_hits", &fts::Results::collapsed_hits,
                    "with collapse=True: the hits left after collapsing (one per cluster); 0 without")
      .def_property_readonly("hits", &hits_of)
      .def("__len__", [](const fts::Results& r) { return r.hits.size(); })
      .def("__getitem__",
           [](const py::object& self, const py::object& i) -> py::object {
             const py::list hits = hits_of(self);
             return hits[i];  // an int or a slice, as list takes them
           })
      .def("__iter__", [](const py::object& self) { return hits_of(self).attr("__iter__")(); })
      .def("__repr__", [](const fts::Results& r) {
        return py::str("fts.Results(total_hits={}{}, {} hits)")
            .format(r.total_hits, r.total_hits_relation == fts::Results::Relation::kEqual ? "" : "+", r.hits.size());
      });

  py::class_<fts::ExplainNode>(m, "ExplainNode", "A node of a query plan: what it is, its cost, its children.")
      .def_property_readonly("what", [](const fts::ExplainNode& n) { return to_str(n.what); })
      .def_readonly("cost", &fts::ExplainNode::cost)
      .def_property_readonly("children",
                             [](const py::object& self) {
                               auto& n = self.cast<fts::ExplainNode&>();
                               py::list out;
                               for (fts::ExplainNode& c : n.children) {
                                 out.append(py::cast(&c, py::return_value_policy::reference_internal, self));
                               }
                               return out;
                             })
      .def("__repr__", [](const fts::ExplainNode& n) {
        return py::str("fts.ExplainNode({!r}, cost={}, {} children)").format(to_str(n.what), n.cost, n.children.size());
      });
}

}  // namespace

void bind_index(py::module_& m) {
  py::class_<CancelToken, std::shared_ptr<CancelToken>>(
      m, "CancelToken", "Pass as cancel= to a search or count; cancel() from another thread stops it (CancelledError).")
      .def(py::init<>())
      .def("cancel", &CancelToken::cancel)
      .def("reset", &CancelToken::reset)
      .def_property_readonly("cancelled", &CancelToken::cancelled);

  py::class_<fts::Query>(m, "Query", "A parsed query (Index.parse), reusable across searches of that index.")
      .def("__str__", [](const fts::Query& q) { return to_str(q.to_string()); })
      .def("__repr__", [](const fts::Query& q) { return py::str("fts.Query({!r})").format(to_str(q.to_string())); })
      .def_property_readonly("matches_nothing", &fts::Query::matches_nothing);

  bind_results(m);

  const fts::SearchOptions defaults;
  py::class_<fts::Index>(m, "Index",
                         "An open index. Thread-safe: threads may search one Index at once (the GIL is released).")
      .def(py::init([](const std::filesystem::path& dir, size_t cache_bytes) {
             py::gil_scoped_release nogil;
             return fts::Index::open(dir.string(), cache_bytes);
           }),
           py::arg("dir"), py::arg("cache_bytes") = size_t{64} << 20)  // Index::open's default
      .def("reopen",
           [](const fts::Index& index) {
             py::gil_scoped_release nogil;
             return index.reopen();
           },
           "The index as its last commit left it (this Index keeps its own snapshot).")
      .def("parse",
           [](const fts::Index& index, const std::string& query) {
             return with_query(&query, [&] {
               py::gil_scoped_release nogil;
               return index.parse(query);
             });
           },
           py::arg("query"))
      .def("search",
           [](const fts::Index& index, py::handle q, long long limit, long long offset, const std::string& sort,
              bool stored_fields, long long snippet_chars, py::handle budget, std::optional<uint64_t> total_hits_threshold,
              const std::shared_ptr<CancelToken>& cancel, bool collapse, unsigned threads) {
             const QueryArg query = query_arg(q);
             fts::SearchOptions o = limits(budget, cancel);
             o.threads = threads;
             o.limit = non_negative("limit", limit);
             o.offset = non_negative("offset", offset);
             o.sort = sort_of(sort);
             o.stored_fields = stored_fields;
             o.snippet_chars = non_negative("snippet_chars", snippet_chars);
             if (total_hits_threshold) o.total_hits_threshold = *total_hits_threshold;
             o.collapse = collapse;
             return with_query(query.text_or_null(), [&] {
               py::gil_scoped_release nogil;
               return index.search(query.get(index), o);
             });
           },
           py::arg("query"), py::arg("limit") = defaults.limit, py::arg("offset") = defaults.offset, py::kw_only(),
           py::arg("sort") = "score", py::arg("stored_fields") = defaults.stored_fields,
           py::arg("snippet_chars") = defaults.snippet_chars, py::arg("time_budget") = py::none(),
           py::arg("total_hits_threshold") = py::none(), py::arg("cancel") = py::none(),
           py::arg("collapse") = defaults.collapse, py::arg("threads") = 1,
           "Ranked hits of query (a str or a Query). sort: 'score' (BM25) or 'doc'. time_budget: seconds or a "
           "timedelta (TimeoutError past it). total_hits_threshold: count exactly up to this many hits, then "
           "total_hits is a lower bound (relation 'gte') and ranking skips docs that cannot make the top. "
           "collapse: the best hit of each near-duplicate cluster only (Hit.duplicates, Results.collapsed_hits). "
           "threads: segments searched at once.")
      .def("count",
           [](const fts::Index& index, py::handle q, py::handle budget, const std::shared_ptr<CancelToken>& cancel,
              unsigned threads) {
             const QueryArg query = query_arg(q);
             fts::SearchOptions o = limits(budget, cancel);
             o.threads = threads;
             return with_query(query.text_or_null(), [&] {
               py::gil_scoped_release nogil;
               return index.count(query.get(index), o);
             });
           },
           py::arg("query"), py::kw_only(), py::arg("time_budget") = py::none(), py::arg("cancel") = py::none(),
           py::arg("threads") = 1, "The exact number of docs query matches. threads: segments searched at once.")
      .def("matching_docs",
           [](const fts::Index& index, py::handle q, py::handle budget, const std::shared_ptr<CancelToken>& cancel,
              unsigned threads) {
             const QueryArg query = query_arg(q);
             fts::SearchOptions o = limits(budget, cancel);
             o.threads = threads;
             return with_query(query.text_or_null(), [&] {
               py::gil_scoped_release nogil;
               return index.matching_docs(query.get(index), o);
             });
           },
           py::arg("query"), py::kw_only(), py::arg("time_budget") = py::none(), py::arg("cancel") = py::none(),
           py::arg("threads") = 1, "Every doc id query matches, ascending. threads: segments searched at once.")
      .def("explain",
           [](const fts::Index& index, const std::string& query) {
             return to_str(with_query(&query, [&] {
               py::gil_scoped_release nogil;
               return index.explain(query);
             }));
           },
           py::arg("query"), "The plan as text: one line per cursor with its cost and cache use.")
      .def("explain_tree",
           [](const fts::Index& index, const std::string& query) {
             return with_query(&query, [&] {
               py::gil_scoped_release nogil;
               return index.explain_tree(query);
             });
           },
           py::arg("query"), "The plan as an ExplainNode tree (the same as explain's text).")
      .def("document",
           [](const fts::Index& index, fts::DocId doc) {
             py::gil_scoped_release nogil;
             return index.document(doc);
           },
           py::arg("doc"), "The stored Document (title, url, abstract). ArgumentError past doc_count.")
      .def("load_stored",
           [](const fts::Index& index, py::handle q, fts::Hit& hit, long long snippet_chars) {
             const QueryArg query = query_arg(q);
             const size_t chars = non_negative("snippet_chars", snippet_chars);
             // Filled in a copy without the GIL, then stored with it: another
             // thread may be reading this Hit meanwhile.
             fts::Hit filled = hit;
             with_query(query.text_or_null(), [&] {
               py::gil_scoped_release nogil;
               index.load_stored(query.get(index), filled, chars);
             });
             hit = std::move(filled);
           },
           py::arg("query"), py::arg("hit"), py::arg("snippet_chars") = defaults.snippet_chars,
           "Fills title, url, snippet and highlights of a hit found with stored_fields=False.")
      .def_property_readonly("doc_count", &fts::Index::doc_count, "Live docs.")
      .def_property_readonly("generation", &fts::Index::generation, "Commit generation this Index opened.")
      .def_property_readonly("dir", [](const fts::Index& index) { return to_str(index.dir()); })
      .def("cache_stats",
           [](const fts::Index& index) {
             const fts::CacheStats s = index.cache_stats();
             py::dict out;
             out["hits"] = s.hits;
             out["misses"] = s.misses;
             out["entries"] = s.entries;
             out["bytes"] = s.bytes;
             out["capacity_bytes"] = s.capacity_bytes;
             return out;
           })
      .def("__repr__", [](const fts::Index& index) {
        return py::str("fts.Index({!r}, doc_count={})").format(to_str(index.dir()), index.doc_count());
      });
}

}  // namespace fts_python
