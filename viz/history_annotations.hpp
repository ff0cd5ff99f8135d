// SPDX-License-Identifier: MIT
// The map's annotations from the analyzer's results: link usage over a window (RRD history) and
// the traffic locality of each subtree (its root switches are coloured).
#pragma once

#include <map>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"
#include "history/link_usage.hpp"
#include "history/window_coverage.hpp"
#include "link_quality/recorded_ber.hpp"
#include "locality/traffic_locality.hpp"
#include "routes/route_map.hpp"
#include "viz/map_model.hpp"

namespace ibpm::viz {

// usage: history::link_usage() of the fabric; traffic: locality::set_traffic() of its subtree
// sets over the same window; coverage: how much of that window the ports read had (the legend
// says it). Sets that are not subtrees (operator sets) colour nothing.
MapAnnotations annotations_from_history(const Fabric& fabric,
                                        const std::vector<history::LinkUsage>& usage,
                                        const std::vector<locality::SetTraffic>& traffic,
                                        const history::WindowCoverage& coverage);

// Each cable's worst bit error ratio of its two ends (from the collectors' sample records) into
// its annotation; nothing when the annotations have no link data.
void annotate_ber(const Fabric& fabric, MapAnnotations& annotations,
                  const std::map<PortRef, link_quality::RecordedBer>& recorded,
                  const NodeNameMap* names);

// Each cable's host pairs per direction, from the switches' forwarding tables (STATE_DIR/
// routes.lft, ibpm-routes --refresh); nothing without link data.
void annotate_routes(const Fabric& fabric, MapAnnotations& annotations,
                     const routes::RouteMap& map);

// "counters from 2024-05-01 11:00 to 12:00 UTC (1 h)"
std::string describe_window(const history::Window& window);

}  // namespace ibpm::viz
