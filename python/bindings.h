// The parts of the fts Python module (module.cpp assembles them). Each
// binds one area of the public API (include/fts/) and nothing else: the
// module links libfts and sees only what an embedder sees.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

#include "fts/document.h"
#include "fts/errors.h"

namespace fts_python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_document(py::module_& m);
void bind_index(py::module_& m);
void bind_writer(py::module_& m);

// Stored text is UTF-8 unless a dump held invalid bytes: those become
// U+FFFD rather than failing the whole search with UnicodeDecodeError.
py::str to_str(std::string_view utf8);

// Raises the Python QuerySyntaxError for e. position is given in code
// points of query (what Python indexes a str by) when the query is known,
// else in bytes as C++ gives it.
[[noreturn]] void raise_query_syntax_error(const fts::QuerySyntaxError& e, const std::string* query);

// Runs f (which releases the GIL itself), turning a QuerySyntaxError about
// query into the Python one with its position in code points.
template <class F>
auto with_query(const std::string* query, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const fts::QuerySyntaxError& e) {
    raise_query_syntax_error(e, query);  // the GIL is held again here
  }
}

// A Document from an fts.Document, a dict of fields, or keyword fields
// (title, url, abstract, links); TypeError for anything else.
fts::Document to_document(py::handle doc, const py::kwargs& fields);

}  // namespace fts_python
