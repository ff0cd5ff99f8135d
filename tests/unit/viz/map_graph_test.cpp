// SPDX-License-Identifier: MIT

#include "viz/map_graph.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "fabric/graph.hpp"
#include "map_fabrics.hpp"
#include "viz/color_scale.hpp"

using namespace ibpm;
using namespace ibpm::viz;
using namespace ibpm::viz::test;

namespace {

MapGraph map_of(const Fabric& fabric, const MapAnnotations& annotations, MapOptions options = {}) {
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  return build_map(fabric, levels, annotations, options);
}

std::size_t count_kind(const MapGraph& map, MapNodeKind kind) {
  return static_cast<std::size_t>(std::count_if(map.nodes.begin(), map.nodes.end(),
                                                [&](const MapNode& n) { return n.kind == kind; }));
}

const MapNode& node_with_id(const MapGraph& map, const std::string& id) {
  auto it = std::find_if(map.nodes.begin(), map.nodes.end(),
                         [&](const MapNode& n) { return n.id == id; });
  REQUIRE(it != map.nodes.end());
  return *it;
}

}  // namespace

TEST_CASE("A 648-host fat tree folds into one hosts node per leaf above the threshold") {
  const Fabric fabric = fat_tree_648();
  const MapGraph map = map_of(fabric, {});
  CHECK(map.folded);
  CHECK(count_kind(map, MapNodeKind::switch_node) == 54);
  CHECK(count_kind(map, MapNodeKind::host_group) == 36);
  CHECK(count_kind(map, MapNodeKind::host) == 0);
  CHECK(map.edges.size() == 648 + 36);  // every leaf-spine pair once, one edge per hosts node
  for (const MapNode& n : map.nodes)
    if (n.kind == MapNodeKind::host_group) {
      CHECK(n.hosts == 18);
      CHECK(n.lines.front() == "18 hosts");
      CHECK(n.rank == levels::kHostLevel);
    }
  for (const MapEdge& e : map.edges) {
    CHECK(map.nodes[e.upper].rank > map.nodes[e.lower].rank);  // drawn top down
    if (map.nodes[e.lower].kind == MapNodeKind::host_group) {
      CHECK(e.links.size() == 18);
      CHECK(e.label.empty());  // the node already says "18 hosts"
      CHECK(e.capacity_bps == Approx(18 * 200e9));
    }
  }
  CHECK(map.ranks.at(2) == "spine");
  CHECK(map.ranks.at(1) == "leaf");
}

TEST_CASE("Folding none draws every device and every cable") {
  const Fabric fabric = fat_tree_648();
  MapOptions options;
  options.fold = FoldMode::none;
  const MapGraph map = map_of(fabric, {}, options);
  CHECK_FALSE(map.folded);
  CHECK(map.nodes.size() == 54 + 648);
  CHECK(map.edges.size() == 1296);
}

TEST_CASE("Automatic folding follows the node count") {
  const Fabric fabric = two_switches(1, 4);
  MapOptions options;
  CHECK_FALSE(map_of(fabric, {}, options).folded);
  options.fold_above = 3;
  CHECK(map_of(fabric, {}, options).folded);
}

TEST_CASE("Parallel cables fold into one edge with a count - the busiest cable's colour") {
  const Fabric fabric = two_switches(4, 2);
  MapAnnotations annotations;
  size_to(annotations, fabric);
  annotations.links[link_at(fabric, {kSpine, 1})].utilization = 0.6;
  annotations.links[link_at(fabric, {kSpine, 2})].utilization = 0.1;
  MapOptions options;
  options.fold = FoldMode::hosts;
  const MapGraph map = map_of(fabric, annotations, options);
  const auto spine_leaf = std::find_if(map.edges.begin(), map.edges.end(), [&](const MapEdge& e) {
    return map.nodes[e.upper].id == "n" + format_guid(kSpine);
  });
  REQUIRE(spine_leaf != map.edges.end());
  CHECK(spine_leaf->links.size() == 4);
  CHECK(spine_leaf->label == "x4");
  CHECK(spine_leaf->utilization == Approx(0.6));
  CHECK(spine_leaf->capacity_bps == Approx(4 * 200e9));
  CHECK(std::find(spine_leaf->tooltip.begin(), spine_leaf->tooltip.end(), "4 cables") !=
        spine_leaf->tooltip.end());

  options.fold = FoldMode::none;
  const MapGraph unfolded = map_of(fabric, annotations, options);
  CHECK(std::count_if(unfolded.edges.begin(), unfolded.edges.end(), [&](const MapEdge& e) {
          return unfolded.nodes[e.upper].id == "n" + format_guid(kSpine);
        }) == 4);
}

TEST_CASE("Aggregation nodes are not drawn - nor their cables") {
  const Fabric fabric = two_switches(1, 2);
  const MapGraph map = map_of(fabric, {});
  CHECK(map.hidden_aggregation_nodes == 1);
  for (const MapNode& n : map.nodes) CHECK(n.id != "n" + format_guid(kAggregation));
  CHECK(map.edges.size() == 1 + 2);
}

TEST_CASE("Errors and degradation label the edge - the node border follows health") {
  const Fabric fabric = two_switches(1, 2);
  MapAnnotations annotations;
  size_to(annotations, fabric);
  LinkAnnotation& uplink = annotations.links[link_at(fabric, {kSpine, 1})];
  uplink.errors_s = 3.25;
  LinkAnnotation& host = annotations.links[link_at(fabric, {host_guid(1), 1})];
  host.degraded = true;
  host.degradation = "1x HDR, expected 4x HDR";
  derive_node_health(fabric, annotations);
  const MapGraph map = map_of(fabric, annotations);
  for (const MapEdge& e : map.edges) {
    if (map.nodes[e.upper].id == "n" + format_guid(kSpine)) {
      CHECK(e.label == "errors 3.25/s");
      CHECK(e.errors_s == 3.25);
    }
    if (map.nodes[e.lower].id == "n" + format_guid(host_guid(1))) {
      CHECK(e.label == "1x HDR, expected 4x HDR");
      CHECK(e.degraded == 1);
    }
  }
  CHECK(node_with_id(map, "n" + format_guid(kSpine)).health == Health::critical);
  CHECK(node_with_id(map, "n" + format_guid(kLeaf)).health == Health::critical);
  CHECK(node_with_id(map, "n" + format_guid(host_guid(1))).health == Health::warning);
  CHECK(node_with_id(map, "n" + format_guid(host_guid(2))).health == Health::unknown);
}

TEST_CASE("Subtree roots take the locality colour and show l in their label") {
  const Fabric fabric = two_switches(1, 2);
  MapAnnotations annotations;
  size_to(annotations, fabric);
  NodeAnnotation& leaf = annotations.nodes[fabric.index_of(kLeaf)];
  leaf.locality = 0.9;
  leaf.locality_gen = 0.8;
  const MapGraph map = map_of(fabric, annotations);
  const MapNode& node = node_with_id(map, "n" + format_guid(kLeaf));
  CHECK(node.fill == locality_color(0.9));
  CHECK(node.lines == std::vector<std::string>{"leaf01", "l 0.90"});
  CHECK(std::find(node.tooltip.begin(), node.tooltip.end(),
                  "subtree locality l 0.90, l_gen 0.80") != node.tooltip.end());
}

TEST_CASE(
    "URLs name nodes by GUID and cables by their lower end - under a prefix - or not at all") {
  const Fabric fabric = two_switches(1, 1);
  MapOptions options;
  options.url_prefix = "https://mon/ib/";
  const MapGraph map = map_of(fabric, {}, options);
  CHECK(node_with_id(map, "n" + format_guid(kLeaf)).url ==
        "https://mon/ib/nodes/0x0000000000000020.html");
  for (const MapEdge& e : map.edges)
    if (map.nodes[e.upper].id == "n" + format_guid(kSpine))
      CHECK(e.url == "https://mon/ib/links/0x0000000000000010-1.html");
  options.urls = false;
  for (const MapNode& n : map_of(fabric, {}, options).nodes) CHECK(n.url.empty());
}

TEST_CASE("Host groups add up their hosts' traffic and list them in the tooltip") {
  const Fabric fabric = two_switches(1, 3);
  MapAnnotations annotations;
  size_to(annotations, fabric);
  for (int i = 1; i <= 3; ++i) annotations.links[link_at(fabric, {host_guid(i), 1})].octets_s = 1e9;
  MapOptions options;
  options.fold = FoldMode::hosts;
  const MapGraph map = map_of(fabric, annotations, options);
  const MapNode& group = node_with_id(map, "h" + format_guid(kLeaf));
  CHECK(group.hosts == 3);
  CHECK(group.lines == std::vector<std::string>{"3 hosts", "3.00 GB/s"});
  CHECK(std::find(group.tooltip.begin(), group.tooltip.end(), "host2") != group.tooltip.end());
}

TEST_CASE("Mellanox switch descriptions are shortened to the switch name in labels") {
  const Fabric fabric = two_switches(1, 1, "MF0;MLG01-02:MQM8700/U1");
  const MapGraph map = map_of(fabric, {});
  const MapNode& leaf = node_with_id(map, "n" + format_guid(kLeaf));
  CHECK(leaf.lines.front() == "MLG01-02");
  CHECK(leaf.tooltip.front() == "MF0;MLG01-02:MQM8700/U1");
}

TEST_CASE("Fold modes parse from the command line words") {
  CHECK(parse_fold_mode("auto") == FoldMode::automatic);
  CHECK(parse_fold_mode("hosts") == FoldMode::hosts);
  CHECK(parse_fold_mode("none") == FoldMode::none);
  CHECK_FALSE(parse_fold_mode("all"));
}
