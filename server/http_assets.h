// HttpAsset: one file of the browser board (web/), compiled into the binary.
//
// The table is generated at build time by web/embed.cmake from every
// web/*.html, *.css and *.js file, so the engine serves its page with no
// files to install and nothing fetched from the network.
#pragma once

#include <span>
#include <string_view>

namespace gobblet {

struct HttpAsset {
  std::string_view path;         // "/index.html", "/board.js", ...
  std::string_view contentType;  // "text/html; charset=utf-8", ...
  std::string_view body;
};

// Every embedded file (generated code).
std::span<const HttpAsset> httpAssets();

// The asset served at `target` (the request path without its query; "/"
// means "/index.html"), or nullptr.
const HttpAsset* findHttpAsset(std::string_view target);

}  // namespace gobblet
