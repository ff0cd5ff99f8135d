// SPDX-License-Identifier: MIT
// What a health map draws, decided before Graphviz sees it: one node per switch (and per host, or
// one per leaf's hosts when folded), one edge per cable (or per pair of nodes when folded), each
// with its plain-text label, tooltip, URL and style values. A folded view (FoldView) draws some
// nodes as themselves and the rest as the units they belong to (fold_units.hpp). Tests check
// this model; the Graphviz rendering (graphviz_render.hpp) only translates it.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"
#include "levels/fabric_levels.hpp"
#include "viz/fold_units.hpp"
#include "viz/map_model.hpp"

namespace ibpm::viz {

// none: every device and every cable. hosts: the CAs of each switch drawn as one node, parallel
// cables as one edge. pods: an overview of units (pods, director chassis, switch groups, leaves
// with their hosts) with a map of each unit and of each leaf one click down (map_set.hpp).
// automatic: up to MapOptions::fold_above nodes none, or hosts when the hosts drawn one by one
// would make the map wider than kMaxMapAspect (hosts_too_wide_to_draw); above, hosts while that
// map keeps within kFoldBudget nodes and edges, then pods.
enum class FoldMode { automatic, hosts, pods, none };
std::optional<FoldMode> parse_fold_mode(std::string_view text);
std::string_view to_string(FoldMode mode);

// At most this many nodes and edges on a map folded by hosts before auto folds by pods.
inline constexpr std::size_t kFoldBudget = 400;

// The widest shape a map should take (width to height), as a screen shows it.
inline constexpr double kMaxMapAspect = 3.0;

// What a folded map draws as itself; every other node with a unit is drawn as its unit.
struct FoldView {
  const FoldUnits* units = nullptr;
  std::vector<bool> itself;        // by node index; a host not drawn as itself goes with its home
                                   // switch when that is drawn as itself
  std::string maps_url;            // URL prefix of the units' and leaves' maps ("map-maps/")
  std::string extension = ".svg";  // of those maps
  std::string title;               // what this map shows ("pod of spine01..spine18 (18 spines)")
  std::string up_url;              // the map one level up; empty on the overview
};

// The file name of a unit's map and of a leaf's map, inside the maps folder.
std::string unit_map_name(const FoldUnit& unit, const std::string& extension);
std::string leaf_map_name(Guid leaf, const std::string& extension);

struct MapOptions {
  FoldMode fold = FoldMode::automatic;
  std::size_t fold_above = 300;
  bool urls = true;
  // Node URLs are PREFIX + "nodes/0x<GUID>.html", link URLs PREFIX + "links/0x<GUID>-<PORT>.html"
  // named by the cable's end with the lower (GUID, port); a folded hosts node links to its
  // switch's page + "#hosts".
  std::string url_prefix;
  const NodeNameMap* names = nullptr;
  const FoldView* view = nullptr;  // set: a folded view (FoldMode::pods)
};

enum class MapNodeKind { switch_node, host, host_group, unit, hub, other };

struct MapNode {
  std::string id;  // Graphviz node name: "n0x<GUID>", folded hosts "h0x<GUID of their switch>"
  MapNodeKind kind = MapNodeKind::other;
  int rank = 0;                        // hosts 0, leaves 1, spines 2, ... (drawn top down)
  std::size_t order = 0;               // left to right within its rank, smaller first
                                       // (FoldUnits::place: by pod, hosts under their switch)
  std::optional<std::size_t> chassis;  // index into MapGraph::chassis
  std::vector<std::string> lines;      // the label, plain text
  std::vector<std::string> tooltip;    // plain text lines
  std::string url;                     // empty: none
  std::string fill;                    // "#rrggbb"
  Health health = Health::unknown;
  std::size_t hosts = 1;  // host_group: how many hosts it stands for
  std::size_t marks = 0;  // unit: cables with errors or degraded, and sick switches
  bool operator==(const MapNode&) const = default;
};

struct MapEdge {
  std::size_t upper = 0;  // MapGraph::nodes index of the end drawn above (the higher rank)
  std::size_t lower = 0;
  std::vector<std::size_t> links;      // Fabric::links() indices drawn as this edge
  std::optional<double> utilization;   // the highest of the links measured; nullopt: none
  std::optional<double> capacity_bps;  // sum over the links whose width and speed are known
  double errors_s = 0;
  std::size_t degraded = 0;                          // links running below what both ends enable
  CongestionMark congestion = CongestionMark::none;  // the worst of its links' directions
  std::string label;                                 // "x4", errors, degradation; empty: none
  std::vector<std::string> tooltip;
  std::string url;
  bool operator==(const MapEdge&) const = default;
};

struct MapGraph {
  std::vector<MapNode> nodes;
  std::vector<MapEdge> edges;
  std::vector<std::string> chassis;  // cluster labels of director chassis
  std::map<int, std::string> ranks;  // rank -> "core", "spine", "leaf", "hosts"
  bool folded = false;
  std::size_t hidden_aggregation_nodes = 0;
  std::string title;   // "666 switches, 4341 hosts, ..."
  std::string window;  // MapAnnotations::window
  std::string up_url;  // FoldView::up_url
  bool operator==(const MapGraph&) const = default;
};

MapGraph build_map(const Fabric& fabric, const levels::FabricLevels& levels,
                   const MapAnnotations& annotations, const MapOptions& options);

// Whether the hosts, one node each on their row, would make the map wider than kMaxMapAspect
// times its height (estimated from their names and the number of levels, as Graphviz draws them):
// then automatic folding draws them folded per switch even on a small fabric.
bool hosts_too_wide_to_draw(const Fabric& fabric, const levels::FabricLevels& levels,
                            const NodeNameMap* names);

}  // namespace ibpm::viz
