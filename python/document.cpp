// fts.Document, and the documents IndexWriter.add/update take: an
// fts.Document, a dict of fields, or keyword fields.
#include <pybind11/stl.h>

#include <string>
#include <utility>
#include <vector>

#include "bindings.h"

namespace fts_python {
namespace {

constexpr const char* kFields = "title, url, abstract, links";

std::string text_field(const std::string& name, py::handle value) {
  if (!py::isinstance<py::str>(value)) {
    throw py::type_error("document field " + name + " takes a str, not " +
                         std::string(py::str(py::type::handle_of(value).attr("__name__"))));
  }
  return value.cast<std::string>();
}

void set_field(fts::Document& d, const std::string& name, py::handle value) {
  if (name == "title") {
    d.title = text_field(name, value);
  } else if (name == "url") {
    d.url = text_field(name, value);
  } else if (name == "abstract") {
    d.abstract = text_field(name, value);
  } else if (name == "links") {
    if (py::isinstance<py::str>(value)) throw py::type_error("document field links takes a list of str, not a str");
    d.links.clear();
    for (py::handle link : py::iter(value)) d.links.push_back(text_field("links", link));
  } else {
    throw py::type_error("'" + name + "' is not a document field (" + kFields + ")");
  }
}

py::list str_list(const std::vector<std::string>& v) {
  py::list l;
  for (const std::string& s : v) l.append(to_str(s));
  return l;
}

}  // namespace

fts::Document to_document(py::handle doc, const py::kwargs& fields) {
  const bool has_doc = !doc.is_none();
  if (has_doc && !fields.empty()) throw py::type_error("give a document or keyword fields, not both");
  if (has_doc && py::isinstance<fts::Document>(doc)) return doc.cast<fts::Document>();
  if (has_doc && !py::isinstance<py::dict>(doc)) {
    throw py::type_error("a document is an fts.Document or a dict of fields (" + std::string(kFields) + "), not " +
                         std::string(py::str(py::type::handle_of(doc).attr("__name__"))));
  }
  fts::Document d;
  for (auto [name, value] : has_doc ? doc.cast<py::dict>() : py::dict(fields)) {
    if (!py::isinstance<py::str>(name)) throw py::type_error("document field names are str");
    set_field(d, name.cast<std::string>(), value);
  }
  return d;
}

void bind_document(py::module_& m) {
  py::class_<fts::Document>(m, "Document",
                            "A document as fts stores it. Index.document() returns one; IndexWriter.add() takes one.")
      .def(py::init([](const py::kwargs& fields) { return to_document(py::none(), fields); }),
           "Document(title='', url='', abstract='', links=[])")
      .def_property("title", [](const fts::Document& d) { return to_str(d.title); },
                    [](fts::Document& d, std::string s) { d.title = std::move(s); })
      .def_property("url", [](const fts::Document& d) { return to_str(d.url); },
                    [](fts::Document& d, std::string s) { d.url = std::move(s); })
      .def_property("abstract", [](const fts::Document& d) { return to_str(d.abstract); },
                    [](fts::Document& d, std::string s) { d.abstract = std::move(s); })
      .def_property("links", [](const fts::Document& d) { return str_list(d.links); },
                    [](fts::Document& d, std::vector<std::string> v) { d.links = std::move(v); })
      .def("to_dict",
           [](const fts::Document& d) {
             py::dict out;
             out["title"] = to_str(d.title);
             out["url"] = to_str(d.url);
             out["abstract"] = to_str(d.abstract);
             out["links"] = str_list(d.links);
             return out;
           })
      .def("__eq__",
           [](const fts::Document& a, const fts::Document& b) {
             return a.title == b.title && a.url == b.url && a.abstract == b.abstract && a.links == b.links;
           },
           py::is_operator())
      .def("__repr__", [](const fts::Document& d) {
        return py::str("fts.Document(title={!r}, url={!r})").format(to_str(d.title), to_str(d.url));
      });
}

}  // namespace fts_python
