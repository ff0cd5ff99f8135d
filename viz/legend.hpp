// SPDX-License-Identifier: MIT
// The map's legend: one HTML-like table (Graphviz "HTML-like label") with the title, the time
// window and every encoding the map uses, from the same scales the drawing uses.
#pragma once

#include <string>

#include "viz/map_graph.hpp"

namespace ibpm::viz {

// The label's content, without the enclosing '<' '>' of the DOT syntax; text escaped.
std::string legend_html(const MapGraph& map);

}  // namespace ibpm::viz
