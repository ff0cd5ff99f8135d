// SPDX-License-Identifier: MIT
// The words on a health map: labels and tooltip lines of switches, hosts, folded hosts and
// cables, as plain text (escaping for Graphviz happens when the map is drawn).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"
#include "levels/fabric_levels.hpp"
#include "viz/map_model.hpp"

namespace ibpm::viz {

// The name on a node's label: the node-name-map's, or the description; a Mellanox/NVIDIA switch
// described "MF0;NAME:MODEL/U1" is NAME (the tooltip keeps the description).
std::string short_name(const Node& node, const NodeNameMap* names);

// Switch or single host: name, type and level, GUID, LID, health, locality.
std::vector<std::string> node_tooltip(const Fabric& fabric, const levels::FabricLevels& levels,
                                      std::size_t node_index, const NodeAnnotation* annotation,
                                      const NodeNameMap* names);

// One line per cable (at most `max_cables`), then what the annotations say about them together.
struct CableSummary {
  std::optional<double> utilization;
  std::optional<double> capacity_bps;
  double errors_s = 0;
  std::size_t degraded = 0;
};
std::vector<std::string> cables_tooltip(const Fabric& fabric, const std::vector<std::size_t>& links,
                                        const MapAnnotations& annotations,
                                        const CableSummary& summary, const NodeNameMap* names,
                                        std::size_t max_cables = 12);

// "x4" for parallel cables, "errors 3.2/s", "1x HDR, expected 4x HDR"; several joined by ", ".
std::string cables_label(std::size_t count, const CableSummary& summary,
                         const std::string& degradation);

std::string format_percent(double share);
std::string format_bps(double bps);  // "200 Gb/s"

}  // namespace ibpm::viz
