// fts.IndexWriter: adds, updates and deletes documents, then commits. The
// GIL is released while it analyzes, flushes, merges and commits; a mutex
// serializes the calls of several Python threads on one writer, since
// fts::IndexWriter is thread-compatible only.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "fts/dump.h"
#include "fts/index_writer.h"

namespace fts_python {
namespace {

class Writer {
 public:
  Writer(const std::string& dir, fts::IndexWriterOptions options) {
    py::gil_scoped_release nogil;
    writer_ = std::make_unique<fts::IndexWriter>(dir, std::move(options));
  }

  // Runs f(writer) without the GIL, one call at a time; ArgumentError after close().
  template <class F>
  auto call(F&& f) -> decltype(f(std::declval<fts::IndexWriter&>())) {
    py::gil_scoped_release nogil;
    std::lock_guard lock(mutex_);
    if (!writer_) throw fts::ArgumentError("IndexWriter", "used after close()");
    return f(*writer_);
  }

  // Releases the lock on the directory; what was not committed is dropped.
  void close() {
    py::gil_scoped_release nogil;
    std::lock_guard lock(mutex_);
    writer_.reset();
  }

  bool closed() {
    py::gil_scoped_release nogil;  // another thread may hold the mutex through a long commit
    std::lock_guard lock(mutex_);
    return !writer_;
  }

 private:
  std::mutex mutex_;
  std::unique_ptr<fts::IndexWriter> writer_;
};

fts::Stopwords stopwords_of(py::handle spec) {
  if (spec.is_none()) return fts::Stopwords::defaults();
  if (py::isinstance<py::str>(spec)) return fts::Stopwords::from_option(spec.cast<std::string>());  // default | none | path
  return fts::Stopwords(spec.cast<std::vector<std::string>>());
}

fts::IndexWriterOptions::Mode mode_of(const std::string& mode) {
  if (mode == "append") return fts::IndexWriterOptions::Mode::kAppend;
  if (mode == "replace") return fts::IndexWriterOptions::Mode::kReplace;
  throw fts::ArgumentError("mode", "must be 'append' or 'replace', not '" + mode + "'");
}

}  // namespace

void bind_writer(py::module_& m) {
  py::class_<fts::BuildStats>(m, "BuildStats", "What a commit published.")
      .def_readonly("docs", &fts::BuildStats::docs, "live docs in the index after the commit")
      .def_readonly("added", &fts::BuildStats::added)
      .def_readonly("deleted", &fts::BuildStats::deleted)
      .def_readonly("terms", &fts::BuildStats::terms)
      .def_readonly("segments", &fts::BuildStats::segments)
      .def_readonly("index_bytes", &fts::BuildStats::index_bytes)
      .def("__repr__", [](const fts::BuildStats& s) {
        return py::str("fts.BuildStats(docs={}, added={}, deleted={}, segments={})")
            .format(s.docs, s.added, s.deleted, s.segments);
      });

  const fts::IndexWriterOptions defaults;
  const fts::DumpOptions dump_defaults;
  py::class_<Writer>(m, "IndexWriter",
                     "Writes an index directory (one writer at a time: LockError). Nothing is visible to readers "
                     "before commit(). As a context manager it commits when the block ends normally and closes "
                     "(dropping what was not committed) either way.")
      .def(py::init([](const std::filesystem::path& dir, unsigned ram_mb, bool merge, py::handle stopwords,
                       unsigned threads, uint32_t max_segment_docs, const std::string& mode,
                       size_t segments_per_merge, unsigned max_deleted_percent,
                       std::optional<std::vector<std::string>> pair_words) {
             fts::IndexWriterOptions o;
             o.ram_mb = ram_mb;
             o.merge = merge;
             o.stopwords = stopwords_of(stopwords);
             o.threads = threads;
             o.max_segment_docs = max_segment_docs;
             o.mode = mode_of(mode);
             o.segments_per_merge = segments_per_merge;
             o.max_deleted_percent = max_deleted_percent;
             o.pair_words = std::move(pair_words);
             return std::make_unique<Writer>(dir.string(), std::move(o));
           }),
           py::arg("dir"), py::kw_only(), py::arg("ram_mb") = defaults.ram_mb, py::arg("merge") = defaults.merge,
           py::arg("stopwords") = py::none(), py::arg("threads") = defaults.threads,
           py::arg("max_segment_docs") = defaults.max_segment_docs, py::arg("mode") = "append",
           py::arg("segments_per_merge") = defaults.segments_per_merge,
           py::arg("max_deleted_percent") = defaults.max_deleted_percent, py::arg("pair_words") = py::none(),
           "mode: 'append' to an existing index or 'replace' it at the first commit. stopwords (new or replaced "
           "index): None (the default list), 'default', 'none', a file path, or a list of words. pair_words (new "
           "or replaced index): None (common English words) or a list of analyzed words whose adjacent pairs are "
           "indexed too, so phrases of them read short lists; [] for none.")
      .def("add",
           [](Writer& w, py::handle doc, const py::kwargs& fields) {
             fts::Document d = to_document(doc, fields);
             return w.call([&](fts::IndexWriter& writer) { return writer.add(std::move(d)); });
           },
           py::arg("doc") = py::none(), py::pos_only(),
           "add(title=, url=, abstract=, links=) or add(dict or Document): the new doc's id.")
      .def("update",
           [](Writer& w, py::handle doc, const py::kwargs& fields) {
             fts::Document d = to_document(doc, fields);
             return w.call([&](fts::IndexWriter& writer) { return writer.update(std::move(d)); });
           },
           py::arg("doc") = py::none(), py::pos_only(),
           "Like add, and the docs with the same url are deleted in the same commit: the new doc's id.")
      .def("delete",
           [](Writer& w, fts::DocId doc) { w.call([&](fts::IndexWriter& writer) { writer.delete_doc(doc); }); },
           py::arg("doc"), "Deletes doc id at the next commit (nothing if absent or deleted).")
      .def("delete_url",
           [](Writer& w, const std::string& url) { w.call([&](fts::IndexWriter& writer) { writer.delete_url(url); }); },
           py::arg("url"), "Deletes every doc with that url at the next commit.")
      .def("delete_by_query",
           [](Writer& w, const std::string& query) {
             with_query(&query, [&] { w.call([&](fts::IndexWriter& writer) { writer.delete_by_query(query); }); });
           },
           py::arg("query"), "Deletes every doc query matches at the next commit (QuerySyntaxError now).")
      .def("force_merge",
           [](Writer& w, size_t max_segments) {
             w.call([&](fts::IndexWriter& writer) { writer.force_merge(max_segments); });
           },
           py::arg("max_segments") = 1, "Merge down to max_segments at the next commit, deleted docs purged.")
      .def("add_dump",
           [](Writer& w, const std::filesystem::path& path, bool strict, uint64_t max_doc_bytes,
              py::handle on_warning) {
             std::vector<std::string> warnings;
             fts::DumpOptions o;
             o.strict = strict;
             o.max_doc_bytes = max_doc_bytes;
             o.warn = [&warnings](const std::string& warning) { warnings.push_back(warning); };
             const uint64_t skipped = w.call([&](fts::IndexWriter& writer) {
               return fts::add_dump(writer, path.string(), o);
             });
             if (!on_warning.is_none()) {
               for (const std::string& warning : warnings) on_warning(to_str(warning));
             }
             return skipped;
           },
           py::arg("path"), py::kw_only(), py::arg("strict") = dump_defaults.strict,
           py::arg("max_doc_bytes") = dump_defaults.max_doc_bytes, py::arg("on_warning") = py::none(),
           "Adds every doc of a dump (.xml or .xml.gz, '-' for stdin): the number of malformed docs skipped, "
           "each reported to on_warning(message) when given. strict: a malformed doc raises DumpError.")
      .def("commit",
           [](Writer& w) { return w.call([](fts::IndexWriter& writer) { return writer.commit(); }); },
           "Publishes everything added and deleted so far, atomically: BuildStats.")
      .def_property_readonly("next_doc_id",
                             [](Writer& w) { return w.call([](fts::IndexWriter& writer) { return writer.next_doc_id(); }); })
      .def_property_readonly("docs_added",
                             [](Writer& w) { return w.call([](fts::IndexWriter& writer) { return writer.docs_added(); }); })
      .def("close", &Writer::close, "Releases the directory; what was not committed is dropped.")
      .def_property_readonly("closed", &Writer::closed)
      .def("__enter__", [](py::object self) { return self; })
      .def("__exit__", [](Writer& w, py::handle type, py::handle, py::handle) {
        if (type.is_none() && !w.closed()) {
          try {
            w.call([](fts::IndexWriter& writer) { writer.commit(); });
          } catch (...) {
            w.close();
            throw;
          }
        }
        w.close();
        return false;
      });
}

}  // namespace fts_python
