// SPDX-License-Identifier: MIT

#include "page.hpp"

#include "html.hpp"

namespace ibpm::web {

std::string root_path(int depth, const std::string& file) {
  std::string path;
  for (int i = 0; i < depth; ++i) path += "../";
  return path + file;
}

std::string page(const PageFrame& frame, const std::string& body_html) {
  auto root = [&](const std::string& file) { return escape(root_path(frame.depth, file)); };
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<title>" +
         escape(frame.title) +
         " - ibpm</title>\n"
         "<link rel=\"stylesheet\" href=\"" +
         root("style.css") +
         "\">\n"
         "<script src=\"" +
         root("sort.js") + "\" defer></script>\n" +
         (frame.script.empty() ? ""
                               : "<script src=\"" + root(frame.script) + "\" defer></script>\n") +
         "</head>\n<body>\n<nav><span class=\"brand\">ibpm</span>"
         "<a href=\"" +
         root("index.html") +
         "\">Overview</a>"
         "<a href=\"" +
         root("switches.html") +
         "\">Switches</a>"
         "<a href=\"" +
         root("locality.html") +
         "\">Locality</a>"
         "<a href=\"" +
         root("congestion.html") +
         "\">Congestion</a>"
         "<a href=\"" +
         root("map.svg") +
         "\">Full map</a>"
         "<span class=\"generated\">" +
         escape(frame.generated) + "</span></nav>\n<main>\n" + body_html +
         "</main>\n</body>\n</html>\n";
}

}  // namespace ibpm::web
