#include "serve/assets.h"

namespace fts::serve {

namespace {

std::string_view content_type_of(std::string_view path) {
  if (path.ends_with(".html")) return "text/html; charset=utf-8";
  if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (path.ends_with(".css")) return "text/css; charset=utf-8";
  if (path.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

}  // namespace

bool find_asset(std::string_view path, Asset& out) {
  if (path == "/") path = "/index.html";
  for (const EmbeddedAsset& a : embedded_assets()) {
    if (a.path == path) {
      out = {a.body, content_type_of(path)};
      return true;
    }
  }
  return false;
}

}  // namespace fts::serve
