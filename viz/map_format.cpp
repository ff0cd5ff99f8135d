// SPDX-License-Identifier: MIT

#include "viz/map_format.hpp"

#include <algorithm>
#include <cctype>

namespace ibpm::viz {

std::optional<MapFormat> format_for_path(const std::string& path) {
  const auto dot = path.find_last_of('.');
  const auto slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
  std::string ext = path.substr(dot + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == "gv") return MapFormat::dot;
  return parse_map_format(ext);
}

std::string_view to_string(MapFormat format) {
  switch (format) {
    case MapFormat::svg:
      return "svg";
    case MapFormat::png:
      return "png";
    case MapFormat::pdf:
      return "pdf";
    case MapFormat::dot:
      break;
  }
  return "dot";
}

std::optional<MapFormat> parse_map_format(std::string_view name) {
  for (MapFormat f : {MapFormat::svg, MapFormat::png, MapFormat::pdf, MapFormat::dot})
    if (to_string(f) == name) return f;
  return std::nullopt;
}

}  // namespace ibpm::viz
