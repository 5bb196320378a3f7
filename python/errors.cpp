// fts's C++ error hierarchy as Python exception classes, all derived from
// fts.Error. Two names differ from C++ so that they do not mislead:
// fts::IndexError is fts.InvalidIndexError (Python's builtin IndexError
// means a subscript out of range), and fts.TimeoutError also derives from
// the builtin TimeoutError, so `except TimeoutError` catches it. Errors that
// are bad values (QuerySyntaxError, ArgumentError) are also ValueErrors, and
// IoError is an OSError.
#include <cstddef>
#include <initializer_list>
#include <string>

#include "bindings.h"

namespace fts_python {
namespace {

// The classes, created once at import and referenced by the module for
// the life of the interpreter.
struct ErrorClasses {
  PyObject* error = nullptr;
  PyObject* invalid_index = nullptr;
  PyObject* query_syntax = nullptr;
  PyObject* dump = nullptr;
  PyObject* lock = nullptr;
  PyObject* io = nullptr;
  PyObject* argument = nullptr;
  PyObject* timeout = nullptr;
  PyObject* cancelled = nullptr;
} classes;

PyObject* new_class(py::module_& m, const char* name, const char* doc, std::initializer_list<PyObject*> bases) {
  py::tuple base_tuple(bases.size());
  size_t i = 0;
  for (PyObject* b : bases) base_tuple[i++] = py::reinterpret_borrow<py::object>(b);
  const std::string qualified = std::string("fts.") + name;
  PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base_tuple.ptr(), nullptr);
  if (cls == nullptr) throw py::error_already_set();
  m.add_object(name, py::handle(cls));  // the module takes its own reference
  return cls;
}

// An instance of cls with str() = what() and the attribute where.
py::object make_error(PyObject* cls, const fts::Error& e) {
  py::object error = py::reinterpret_borrow<py::object>(cls)(to_str(e.what()));
  error.attr("where") = to_str(e.where());
  return error;
}

void raise(PyObject* cls, const fts::Error& e) {
  try {
    PyErr_SetObject(cls, make_error(cls, e).ptr());
  } catch (py::error_already_set& failed) {
    failed.restore();  // building the exception failed (MemoryError): raise that
  }
}

size_t code_points(std::string_view utf8) {
  size_t n = 0;
  for (unsigned char c : utf8) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

py::str to_str(std::string_view utf8) {
  PyObject* s = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "replace");
  if (s == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(s);
}

void raise_query_syntax_error(const fts::QuerySyntaxError& e, const std::string* query) {
  py::object error = make_error(classes.query_syntax, e);
  size_t position = e.position();
  if (query != nullptr) {
    // The query came from a Python str, so it is valid UTF-8 and the
    // position (a token's first byte) starts a code point.
    position = code_points(std::string_view(*query).substr(0, std::min(position, query->size())));
    error.attr("query") = py::str(*query);
  } else {
    error.attr("query") = py::none();
  }
  error.attr("position") = position;
  error.attr("byte_position") = e.position();
  PyErr_SetObject(classes.query_syntax, error.ptr());
  throw py::error_already_set();
}

void bind_errors(py::module_& m) {
  PyObject* exception = PyExc_Exception;
  classes.error = new_class(m, "Error",
      "Every error fts raises. str(e) says what went wrong and where; e.where is the place alone "
      "(a path, an index directory, a dump, 'query', an option name).", {exception});
  classes.invalid_index = new_class(m, "InvalidIndexError",
      "A missing, damaged or unreadable index, or one fts cannot use (C++ fts::IndexError).",
      {classes.error});
  classes.query_syntax = new_class(m, "QuerySyntaxError",
      "A malformed query. e.position is the offset of the token at fault in the query str "
      "(code points), e.byte_position the same in UTF-8 bytes, e.query the query.",
      {classes.error, PyExc_ValueError});
  classes.dump = new_class(m, "DumpError", "A dump that cannot be read; e.where is its path.", {classes.error});
  classes.lock = new_class(m, "LockError", "Another writer holds the index directory.", {classes.error});
  classes.io = new_class(m, "IoError", "The system refused an I/O operation (full disk, permissions...).",
                         {classes.error, PyExc_OSError});
  classes.argument = new_class(m, "ArgumentError",
      "An argument or option fts refuses; e.where names it.", {classes.error, PyExc_ValueError});
  classes.timeout = new_class(m, "TimeoutError",
      "A search or count that ran past its time_budget (also a builtin TimeoutError).",
      {classes.error, PyExc_TimeoutError});
  classes.cancelled = new_class(m, "CancelledError", "A search or count stopped by its CancelToken.",
                                {classes.error});

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const fts::QuerySyntaxError& e) {
      try {
        raise_query_syntax_error(e, nullptr);
      } catch (py::error_already_set& set) {
        set.restore();
      }
    } catch (const fts::IndexError& e) {
      raise(classes.invalid_index, e);
    } catch (const fts::DumpError& e) {
      raise(classes.dump, e);
    } catch (const fts::LockError& e) {
      raise(classes.lock, e);
    } catch (const fts::IoError& e) {
      raise(classes.io, e);
    } catch (const fts::ArgumentError& e) {
      raise(classes.argument, e);
    } catch (const fts::TimeoutError& e) {
      raise(classes.timeout, e);
    } catch (const fts::CancelledError& e) {
      raise(classes.cancelled, e);
    } catch (const fts::Error& e) {
      raise(classes.error, e);
    }
  });
}

}  // namespace fts_python
