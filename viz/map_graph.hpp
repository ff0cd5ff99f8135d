// What a health map draws, decided before Graphviz sees it: one node per switch (and per host, or
// one per leaf's hosts when folded), one edge per cable (or per pair of nodes when folded), each
// with its plain-text label, tooltip, URL and style values. Tests check this model; the Graphviz
// rendering (graphviz_render.hpp) only translates it.
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
#include "viz/map_model.hpp"

namespace ibpm::viz {

// hosts: the CAs of each switch drawn as one node, parallel cables as one edge. none: every
// device and every cable. automatic: hosts when the fabric has more than MapOptions::fold_above
// nodes.
enum class FoldMode { automatic, hosts, none };
std::optional<FoldMode> parse_fold_mode(std::string_view text);

struct MapOptions {
  FoldMode fold = FoldMode::automatic;
  std::size_t fold_above = 300;
  bool urls = true;
  // Node URLs are PREFIX + "nodes/0x<GUID>.html", link URLs PREFIX + "links/0x<GUID>-<PORT>.html"
  // named by the cable's end with the lower (GUID, port); a folded hosts node links to its
  // switch's page + "#hosts".
  std::string url_prefix;
  const NodeNameMap* names = nullptr;
};

enum class MapNodeKind { switch_node, host, host_group, other };

struct MapNode {
  std::string id;  // Graphviz node name: "n0x<GUID>", folded hosts "h0x<GUID of their switch>"
  MapNodeKind kind = MapNodeKind::other;
  int rank = 0;                        // hosts 0, leaves 1, spines 2, ... (drawn top down)
  std::optional<std::size_t> chassis;  // index into MapGraph::chassis
  std::vector<std::string> lines;      // the label, plain text
  std::vector<std::string> tooltip;    // plain text lines
  std::string url;                     // empty: none
  std::string fill;                    // "#rrggbb"
  Health health = Health::unknown;
  std::size_t hosts = 1;               // host_group: how many hosts it stands for
};

struct MapEdge {
  std::size_t upper = 0;  // MapGraph::nodes index of the end drawn above (the higher rank)
  std::size_t lower = 0;
  std::vector<std::size_t> links;        // Fabric::links() indices drawn as this edge
  std::optional<double> utilization;     // the highest of the links measured; nullopt: none
  std::optional<double> capacity_bps;    // sum over the links whose width and speed are known
  double errors_s = 0;
  std::size_t degraded = 0;              // links running below what both ends enable
  std::string label;                     // "x4", errors, degradation; empty: none
  std::vector<std::string> tooltip;
  std::string url;
};

struct MapGraph {
  std::vector<MapNode> nodes;
  std::vector<MapEdge> edges;
  std::vector<std::string> chassis;   // cluster labels of director chassis
  std::map<int, std::string> ranks;   // rank -> "core", "spine", "leaf", "hosts"
  bool folded = false;
  std::size_t hidden_aggregation_nodes = 0;
  std::string title;                  // "666 switches, 4341 hosts, ..."
  std::string window;                 // MapAnnotations::window
};

MapGraph build_map(const Fabric& fabric, const FabricLevels& levels,
                   const MapAnnotations& annotations, const MapOptions& options);

}  // namespace ibpm::viz
