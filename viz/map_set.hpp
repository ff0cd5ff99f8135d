// SPDX-License-Identifier: MIT
// The maps one run writes: the overview and, when the fabric is folded by pods, a map of every
// unit (its switches, with the units cabled to them) and of every switch with hosts (its hosts,
// with the units it is cabled to), so any switch and cable is at most two clicks from the overview.
// The drill-down maps go into a folder next to the overview, replaced whole at each run.
#pragma once

#include <cstddef>
#include <string>

#include "fabric/fabric.hpp"
#include "levels/fabric_levels.hpp"
#include "viz/map_format.hpp"
#include "viz/map_graph.hpp"
#include "viz/map_model.hpp"
#include "viz/map_renderer.hpp"

namespace ibpm::viz {

struct MapSetOptions {
  MapOptions map;
  // The drill-down maps' folder, a name next to the overview (no '/': write_map_set refuses a
  // path); empty: "<overview stem>-maps".
  std::string maps_dir;
};

struct WrittenMaps {
  FoldMode fold = FoldMode::none;  // what automatic chose
  std::size_t overview_nodes = 0;  // the overview's nodes and edges (no legend)
  std::size_t overview_edges = 0;
  std::size_t drill_down_maps = 0;
  std::string maps_dir;  // the folder's path, when written
};

// FoldMode::automatic resolved for this fabric (MapOptions::fold otherwise).
FoldMode choose_fold(const Fabric& fabric, const levels::FabricLevels& levels,
                     const MapAnnotations& annotations, const MapOptions& options);

// Writes the overview to `path` in `format` and, folded by pods into an SVG, the drill-down maps
// (a PNG, PDF or DOT overview comes alone: nothing in it can be clicked), each drawn by
// `renderer`; the drill-down maps are all written before their folder replaces the old one, and
// the overview after it. Throws std::runtime_error with a one-line reason.
WrittenMaps write_map_set(const Fabric& fabric, const levels::FabricLevels& levels,
                          const MapAnnotations& annotations, const MapSetOptions& options,
                          MapFormat format, const std::string& path, MapRenderer& renderer);

}  // namespace ibpm::viz
