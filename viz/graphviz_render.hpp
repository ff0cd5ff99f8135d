// SPDX-License-Identifier: MIT
// Draws a MapGraph with Graphviz: cgraph builds the graph (switch levels as rank=same subgraphs,
// director chassis as clusters, the legend as an HTML-like table on top), gvc lays it out with
// dot and renders it. Output files are replaced whole or not at all.
#pragma once

#include <optional>
#include <string>

#include "viz/map_graph.hpp"

namespace ibpm::viz {

enum class MapFormat { svg, png, pdf, dot };

// By the file's extension (.svg .png .pdf .dot, any case); nullopt for anything else.
std::optional<MapFormat> format_for_path(const std::string& path);

// .dot is the graph before layout (for other tools or other layout engines); the others are laid
// out with dot. Throws std::runtime_error with Graphviz's reason on failure; `path` is then
// untouched.
void render_map(const MapGraph& map, MapFormat format, const std::string& path);

// The same output in memory (tests, and callers that embed the SVG).
std::string render_map_data(const MapGraph& map, MapFormat format);

}  // namespace ibpm::viz
