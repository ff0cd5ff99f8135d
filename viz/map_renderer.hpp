// SPDX-License-Identifier: MIT
// Where the maps of a run are drawn: in this process (GraphvizRenderer, graphviz_render.hpp) or
// in ibpm-draw, which the commands that read the RRD history start (DrawProcess,
// draw_process.hpp), so no executable links both librrd and Graphviz.
#pragma once

#include <string>

#include "viz/map_format.hpp"
#include "viz/map_graph.hpp"

namespace ibpm::viz {

class MapRenderer {
 public:
  virtual ~MapRenderer() = default;
  // Draws `map` into `path` (replaced whole or not at all), now or queued for finish(). Throws
  // std::runtime_error with a one-line reason (possibly an earlier queued map's).
  virtual void render(const MapGraph& map, MapFormat format, const std::string& path) = 0;
  // Returns once every map given to render() is written; throws the first failure's reason.
  virtual void finish() = 0;
};

}  // namespace ibpm::viz
