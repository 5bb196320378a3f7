// The write endpoints of a --writable fts-serve, behind a bearer token:
//   POST /docs            JSON lines of {"title","url","abstract"}, or a dump
//                         (Content-Type: application/xml, or application/gzip)
//   PUT /docs             the same body; each doc replaces the docs with its url
//   DELETE /docs/{id}     DELETE /docs?url=URL     DELETE /docs?q=QUERY
//   POST /commit
// Adds and deletes become visible to searches at the next commit; a bad
// body adds nothing. Api routes here; without --writable it answers 405.
#pragma once

#include <string>

#include "serve/api.h"
#include "serve/doc_writer.h"
#include "serve/url.h"

namespace fts::serve {

class WriteApi {
 public:
  WriteApi(DocWriter& writer, std::string token);

  // A request to /docs, /docs/{id} or /commit with a method other than
  // GET or HEAD.
  ApiResponse handle(const ApiRequest& request, const Target& target) const;
  WriterStatus status() const { return writer_.status(); }

 private:
  // update: PUT, each doc replacing the docs with its url.
  ApiResponse add(const ApiRequest& request, const Target& target, bool update) const;
  ApiResponse delete_one(std::string_view id_text, const Target& target) const;
  ApiResponse delete_matching(const Target& target) const;
  ApiResponse commit(const Target& target) const;

  DocWriter& writer_;
  std::string token_;
};

}  // namespace fts::serve
