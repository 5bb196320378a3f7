#include "serve/doc_body.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <nlohmann/json.hpp>

#include "dump/dump_reader.h"

namespace fts::serve {

namespace {

using json = nlohmann::json;

bool blank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\r') return false;
  }
  return true;
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 1,
// column 7: syntax error while parsing ..." as "column 7: syntax error ...".
std::string json_reason(const json::exception& e) {
  std::string_view what = e.what();
  if (size_t bracket = what.find("] "); bracket != std::string_view::npos) what.remove_prefix(bracket + 2);
  constexpr std::string_view kAtLine1 = "parse error at line 1, ";
  if (what.starts_with(kAtLine1)) what.remove_prefix(kAtLine1.size());
  return std::string(what);
}

// "" or the reason the object is not a document.
std::string to_document(const json& j, Document& doc) {
  if (!j.is_object()) return std::string("a document is a JSON object, not ") + j.type_name();
  for (const auto& [key, value] : j.items()) {
    std::string* field = key == "title" ? &doc.title : key == "url" ? &doc.url : key == "abstract" ? &doc.abstract : nullptr;
    if (!field) return "unknown field '" + key + "' (a document has title, url and abstract)";
    if (!value.is_string()) return key + " must be a string, not " + value.type_name();
    *field = value.get<std::string>();
  }
  if (doc.title.empty() && doc.url.empty() && doc.abstract.empty()) return "the document has no title, url or abstract";
  return "";
}

// A file descriptor closed when the scope ends.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::string parse_doc_lines(std::string_view body, std::vector<Document>& out) {
  size_t line_no = 0;
  while (!body.empty()) {
    size_t eol = body.find('\n');
    std::string_view line = body.substr(0, eol);
    body.remove_prefix(eol == std::string_view::npos ? body.size() : eol + 1);
    ++line_no;
    if (blank(line)) continue;
    json j;
    try {
      j = json::parse(line);
    } catch (const json::exception& e) {
      return "line " + std::to_string(line_no) + ": " + json_reason(e);
    }
    Document doc;
    if (std::string why = to_document(j, doc); !why.empty()) return "line " + std::to_string(line_no) + ": " + why;
    out.push_back(std::move(doc));
  }
  return "";
}

std::string parse_dump(std::string_view body, std::vector<Document>& out) {
  // The dump reader reads a file: hand it the body as an anonymous one.
  Fd memory{::memfd_create("fts-serve-dump", MFD_CLOEXEC)};
  if (memory.fd < 0) return std::string("cannot buffer the dump: ") + std::strerror(errno);
  for (size_t done = 0; done < body.size();) {
    ssize_t n = ::write(memory.fd, body.data() + done, body.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::string("cannot buffer the dump: ") + std::strerror(errno);
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(memory.fd);
  try {
    DumpReader reader(path, {.strict = true, .warn = {}, .max_doc_bytes = body.size() + 1});
    Document doc;
    while (reader.next(doc)) out.push_back(std::move(doc));
  } catch (const DumpError& e) {
    // what() is "PATH: reason"; the path is ours, not the client's.
    std::string_view what = e.what();
    if (what.starts_with(e.where() + ": ")) what.remove_prefix(e.where().size() + 2);
    return "the dump: " + std::string(what);
  }
  return "";
}

}  // namespace fts::serve
