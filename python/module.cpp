// import fts: the Python module over libfts's public API.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "fts/version.h"

PYBIND11_MODULE(fts, m) {
  m.doc() =
      "fts: full-text search over Wikipedia-abstract dumps.\n\n"
      "  index = fts.Index('wiki-index')\n"
      "  for hit in index.search('wild cat', limit=5):\n"
      "      print(hit.doc, hit.score, hit.title)\n";
  m.attr("__version__") = FTS_VERSION_STRING;
  fts_python::bind_errors(m);
  fts_python::bind_document(m);
  fts_python::bind_index(m);
  fts_python::bind_writer(m);
}
