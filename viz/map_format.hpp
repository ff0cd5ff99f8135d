// SPDX-License-Identifier: MIT
// The file formats a map is written in, by the output's extension (Graphviz-free: the commands
// that read the RRD history choose the format; ibpm-draw renders it).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ibpm::viz {

enum class MapFormat { svg, png, pdf, dot };

// By the file's extension (.svg .png .pdf .dot, any case); nullopt for anything else.
std::optional<MapFormat> format_for_path(const std::string& path);

// "svg", "png", "pdf", "dot"; and back (nullopt for anything else).
std::string_view to_string(MapFormat format);
std::optional<MapFormat> parse_map_format(std::string_view name);

}  // namespace ibpm::viz
