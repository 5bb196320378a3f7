#include "serve/write_api.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "serve/bearer_token.h"
#include "serve/doc_body.h"
#include "serve/json_response.h"

namespace fts::serve {

namespace {

ApiResponse unauthorized(bool token_given) {
  ApiResponse r = Api::error(401, token_given ? "the bearer token is wrong" : "writes need an Authorization: Bearer token");
  r.headers.emplace_back("WWW-Authenticate",
                         token_given ? R"(Bearer realm="fts-serve", error="invalid_token")" : R"(Bearer realm="fts-serve")");
  return r;
}

ApiResponse method_not_allowed(std::string_view method, const std::string& path, const char* allow) {
  ApiResponse r = Api::error(405, std::string(method) + " is not allowed on " + path);
  r.headers.emplace_back("Allow", allow);
  return r;
}

std::optional<ApiResponse> no_params(const Target& target) {
  if (target.params.empty()) return std::nullopt;
  return Api::error(400, "unknown parameter '" + target.params[0].first + "'");
}

// The media type alone, lower-cased: "application/xml; charset=utf-8" ->
// "application/xml".
std::string media_type(std::string_view content_type) {
  std::string out(content_type.substr(0, content_type.find(';')));
  while (!out.empty() && out.back() == ' ') out.pop_back();
  for (char& c : out) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return out;
}

enum class BodyFormat { kDocLines, kDump, kUnsupported };

BodyFormat format_of(std::string_view content_type) {
  const std::string type = media_type(content_type);
  if (type.empty() || type == "application/x-ndjson" || type == "application/jsonl" || type == "application/json" ||
      type == "text/plain") {
    return BodyFormat::kDocLines;
  }
  if (type == "application/xml" || type == "text/xml" || type == "application/gzip" || type == "application/x-gzip") {
    return BodyFormat::kDump;
  }
  return BodyFormat::kUnsupported;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return std::round(ms * 1000.0) / 1000.0;
}

}  // namespace

WriteApi::WriteApi(DocWriter& writer, std::string token) : writer_(writer), token_(std::move(token)) {}

ApiResponse WriteApi::handle(const ApiRequest& request, const Target& target) const {
  const std::string& path = target.path;
  const std::string_view method = request.method;
  const bool one_doc = path.starts_with("/docs/");
  if (one_doc && method != "DELETE") return method_not_allowed(method, path, "GET, HEAD, DELETE");
  if (path == "/docs" && method != "POST" && method != "PUT" && method != "DELETE") {
    return method_not_allowed(method, path, "POST, PUT, DELETE");
  }
  if (path == "/commit" && method != "POST") return method_not_allowed(method, path, "POST");
  // Routing first, so a wrong method says 405 whoever asks; then who asks.
  if (!bearer_matches(request.authorization, token_)) return unauthorized(!request.authorization.empty());
  try {
    if (one_doc) return delete_one(std::string_view(path).substr(6), target);
    if (path == "/commit") return commit(target);
    if (method == "POST" || method == "PUT") return add(request, target, method == "PUT");
    return delete_matching(target);
  } catch (const QuerySyntaxError& e) {
    std::string q;
    for (const auto& [key, value] : target.params) {
      if (key == "q") q = value;
    }
    return syntax_error_response(q, e);
  }
}

ApiResponse WriteApi::add(const ApiRequest& request, const Target& target, bool update) const {
  if (auto e = no_params(target)) return *e;
  std::vector<Document> docs;
  std::string why;
  switch (format_of(request.content_type)) {
    case BodyFormat::kDocLines:
      why = parse_doc_lines(request.body, docs);
      break;
    case BodyFormat::kDump:
      why = parse_dump(request.body, docs);
      break;
    case BodyFormat::kUnsupported:
      return Api::error(415, std::string(request.method) + " /docs takes JSON lines (application/x-ndjson) or a dump (application/xml or "
                             "application/gzip), not " + std::string(request.content_type));
  }
  if (!why.empty()) return Api::error(400, why + " (nothing was added)");
  if (docs.empty()) return Api::error(400, "the body holds no document");
  if (update) {
    for (size_t i = 0; i < docs.size(); ++i) {
      if (docs[i].url.empty()) {
        return Api::error(400, "document " + std::to_string(i + 1) +
                                   " has no url: PUT /docs replaces the docs with its url (nothing was added)");
      }
    }
  }
  const size_t n = docs.size();
  std::vector<DocId> ids = update ? writer_.update(std::move(docs)) : writer_.add(std::move(docs));
  return json_response(
      200, json{{update ? "updated" : "added", n}, {"ids", ids}, {"uncommitted_adds", writer_.status().uncommitted_adds}});
}

ApiResponse WriteApi::delete_one(std::string_view id_text, const Target& target) const {
  if (auto e = no_params(target)) return *e;
  DocId id = 0;
  auto [end, ec] = std::from_chars(id_text.data(), id_text.data() + id_text.size(), id);
  if (id_text.empty() || ec != std::errc() || end != id_text.data() + id_text.size()) {
    return Api::error(404, "no document '" + std::string(id_text) + "' (ids are whole numbers)");
  }
  if (!writer_.delete_doc(id)) return Api::error(404, "no document " + std::to_string(id));
  return json_response(200, json{{"deleted", {{"doc", id}}}, {"visible", "at the next commit"}});
}

ApiResponse WriteApi::delete_matching(const Target& target) const {
  if (target.params.size() != 1 || (target.params[0].first != "url" && target.params[0].first != "q")) {
    return Api::error(400, "DELETE /docs takes one parameter, url= or q= (DELETE /docs/{id} deletes one doc)");
  }
  const auto& [key, value] = target.params[0];
  size_t bad = 0;
  if (!valid_utf8(value, bad)) return Api::error(400, key + " is not valid UTF-8 (byte " + std::to_string(bad) + ")");
  if (key == "url") {
    writer_.delete_url(value);
  } else {
    writer_.delete_by_query(value);
  }
  return json_response(200, json{{"deleted", {{key == "url" ? "url" : "query", value}}}, {"visible", "at the next commit"}});
}

ApiResponse WriteApi::commit(const Target& target) const {
  if (auto e = no_params(target)) return *e;
  const auto start = std::chrono::steady_clock::now();
  CommitResult c = writer_.commit();
  return json_response(200, json{{"generation", c.generation},
                                 {"docs", c.stats.docs},
                                 {"added", c.stats.added},
                                 {"deleted", c.stats.deleted},
                                 {"segments", c.stats.segments},
                                 {"took_ms", ms_since(start)}});
}

}  // namespace fts::serve
