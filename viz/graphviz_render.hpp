// SPDX-License-Identifier: MIT
// Draws a MapGraph with Graphviz: cgraph builds the graph (switch levels as rank=same subgraphs,
// director chassis as clusters, the legend as an HTML-like table on top), gvc lays it out with
// dot and renders it. Output files are replaced whole or not at all.
#pragma once

#include <string>

#include "viz/map_format.hpp"
#include "viz/map_graph.hpp"
#include "viz/map_renderer.hpp"

namespace ibpm::viz {

// .dot is the graph before layout (for other tools or other layout engines); the others are laid
// out with dot. Throws std::runtime_error with Graphviz's reason on failure; `path` is then
// untouched.
void render_map(const MapGraph& map, MapFormat format, const std::string& path);

// The same output in memory (tests, and callers that embed the SVG).
std::string render_map_data(const MapGraph& map, MapFormat format);

// render_map() at each render(), in this process (ibpm-draw, and the tests).
class GraphvizRenderer final : public MapRenderer {
 public:
  void render(const MapGraph& map, MapFormat format, const std::string& path) override {
    render_map(map, format, path);
  }
  void finish() override {}
};

}  // namespace ibpm::viz
