// The search page's files, compiled into the binary (cmake/embed_assets.cmake):
// fts-serve never opens a file whose name a client chose.
#pragma once

#include <span>
#include <string_view>

namespace fts::serve {

struct EmbeddedAsset {
  std::string_view path;  // "/index.html", "/app.js", ...
  std::string_view body;
};

std::span<const EmbeddedAsset> embedded_assets();  // generated

struct Asset {
  std::string_view body;
  std::string_view content_type;
};

// The asset served at an URL path ("/" is "/index.html"); false if none.
bool find_asset(std::string_view path, Asset& out);

}  // namespace fts::serve
