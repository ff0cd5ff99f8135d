// SPDX-License-Identifier: MIT
// Where Graphviz puts a map's nodes, read back from the SVG: every level on one row, the
// switches of a pod side by side, pods in order, each leaf's hosts under it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "fabric/graph.hpp"
#include "map_fabrics.hpp"
#include "viz/fold_units.hpp"
#include "viz/graphviz_render.hpp"
#include "viz/map_graph.hpp"

using namespace ibpm;
using namespace ibpm::viz;
using namespace ibpm::viz::test;

namespace {

struct Point {
  double x = 0;
  double y = 0;
};

std::string attribute(const std::string& element, const std::string& name) {
  const std::string start = " " + name + "=\"";
  const auto at = element.find(start);
  if (at == std::string::npos) return {};
  const auto begin = at + start.size();
  return element.substr(begin, element.find('"', begin) - begin);
}

// The centre of each node's shape (ellipse, polygon or path: the middle of its points' box), by
// node id, in SVG coordinates (y grows downwards).
std::map<std::string, Point> node_centres(const std::string& svg) {
  std::map<std::string, Point> centres;
  const std::string marker = "class=\"node\"";
  for (auto at = svg.find(marker); at != std::string::npos; at = svg.find(marker, at + 1)) {
    const auto open = svg.rfind("<g ", at);
    const std::string id = attribute(svg.substr(open, at - open + marker.size()), "id");
    const auto end = svg.find("</g>\n</g>", at);  // a node's group closes after its link's
    const std::string body = svg.substr(at, end - at);
    for (const char* shape : {"<ellipse", "<polygon", "<path"}) {
      const auto s = body.find(shape);
      if (s == std::string::npos) continue;
      const std::string element = body.substr(s, body.find('>', s) - s);
      if (std::string(shape) == "<ellipse") {
        centres[id] = {std::stod(attribute(element, "cx")), std::stod(attribute(element, "cy"))};
        break;
      }
      std::string points = attribute(element, shape == std::string("<path") ? "d" : "points");
      for (char& ch : points)
        if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == '-')) ch = ' ';
      std::vector<double> values;
      std::size_t used = 0;
      for (std::string_view rest = points; !rest.empty(); rest.remove_prefix(used)) {
        while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
        if (rest.empty()) break;
        values.push_back(std::stod(std::string(rest), &used));
      }
      double min_x = 1e18, max_x = -1e18, min_y = 1e18, max_y = -1e18;
      for (std::size_t k = 0; k + 1 < values.size(); k += 2) {
        min_x = std::min(min_x, values[k]);
        max_x = std::max(max_x, values[k]);
        min_y = std::min(min_y, values[k + 1]);
        max_y = std::max(max_y, values[k + 1]);
      }
      centres[id] = {(min_x + max_x) / 2, (min_y + max_y) / 2};
      break;
    }
  }
  return centres;
}

struct Layout {
  MapGraph map;
  std::map<std::string, Point> at;
};

Layout lay_out(const Fabric& fabric, const levels::FabricLevels& levels, FoldMode fold) {
  MapOptions options;
  options.fold = fold;
  Layout layout{build_map(fabric, levels, {}, options), {}};
  layout.at = node_centres(render_map_data(layout.map, MapFormat::svg));
  return layout;
}

// The drawn nodes of one rank, left to right.
std::vector<const MapNode*> row(const Layout& layout, int rank, MapNodeKind kind) {
  std::vector<const MapNode*> nodes;
  for (const MapNode& n : layout.map.nodes)
    if (n.rank == rank && n.kind == kind) nodes.push_back(&n);
  std::sort(nodes.begin(), nodes.end(), [&](const MapNode* a, const MapNode* b) {
    return layout.at.at(a->id).x < layout.at.at(b->id).x;
  });
  return nodes;
}

// Every node of a rank at one height, the ranks top down in order.
void check_one_row_per_level(const Layout& layout, std::initializer_list<int> ranks) {
  double above = -1e18;
  for (int rank : ranks) {
    INFO("rank " << rank);
    double y = 0;
    std::size_t count = 0;
    for (const MapNode& n : layout.map.nodes) {
      if (n.rank != rank) continue;
      REQUIRE(layout.at.contains(n.id));
      const double node_y = layout.at.at(n.id).y;
      if (count++ == 0) y = node_y;
      INFO(n.lines.front() << " at y " << node_y << ", its level's first node at " << y);
      CHECK(std::abs(node_y - y) < 1.0);
    }
    CHECK(count > 0);
    CHECK(y > above);  // below the level above
    above = y;
  }
}

std::vector<std::string> names(const std::vector<const MapNode*>& nodes) {
  std::vector<std::string> out;
  for (const MapNode* n : nodes) out.push_back(n->lines.front());
  return out;
}

std::vector<std::string> numbered(const std::string& prefix, int count) {
  std::vector<std::string> out;
  for (int i = 1; i <= count; ++i) out.push_back(prefix + (i < 10 ? "0" : "") + std::to_string(i));
  return out;
}

}  // namespace

TEST_CASE("The map of a 3-level tree draws each level on one row, in pod order") {
  const Fabric fabric = fat_tree_3level_64();
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  const FoldUnits units = fold_units(fabric, levels, nullptr);
  REQUIRE(std::count_if(units.units.begin(), units.units.end(),
                        [](const FoldUnit& u) { return u.kind == UnitKind::pod; }) == 4);

  SECTION("as ibpm-map draws it: hosts folded per leaf") {
    const Layout layout = lay_out(fabric, levels, FoldMode::automatic);
    REQUIRE(layout.map.folded);
    check_one_row_per_level(layout, {3, 2, 1, 0});
    CHECK(names(row(layout, 3, MapNodeKind::switch_node)) == numbered("core", 8));
    CHECK(names(row(layout, 2, MapNodeKind::switch_node)) == numbered("spine", 16));
    const auto leaves = row(layout, 1, MapNodeKind::switch_node);
    CHECK(names(leaves) == numbered("leaf", 16));
    // leaf01..leaf04 are one pod, leaf05..leaf08 the next: the pods' leaves side by side.
    for (std::size_t k = 0; k < leaves.size(); ++k) {
      const std::size_t pod = units.unit_of[fabric.index_of(*parse_guid(leaves[k]->id.substr(1)))];
      CHECK(pod == units.unit_of[fabric.index_of(*parse_guid(leaves[k / 4 * 4]->id.substr(1)))]);
    }
    // Each leaf's hosts under it: the leaf nearest above them is theirs.
    const auto groups = row(layout, 0, MapNodeKind::host_group);
    REQUIRE(groups.size() == 16);
    for (std::size_t k = 0; k < groups.size(); ++k) {
      CHECK(groups[k]->id.substr(1) == leaves[k]->id.substr(1));
      const double x = layout.at.at(groups[k]->id).x;
      const auto nearest = std::min_element(leaves.begin(), leaves.end(), [&](auto* a, auto* b) {
        return std::abs(layout.at.at(a->id).x - x) < std::abs(layout.at.at(b->id).x - x);
      });
      CHECK((*nearest)->id == leaves[k]->id);
    }
  }

  SECTION("with every host drawn: the switch levels still one row each, in order") {
    const Layout layout = lay_out(fabric, levels, FoldMode::none);
    REQUIRE_FALSE(layout.map.folded);
    check_one_row_per_level(layout, {3, 2, 1});
    CHECK(names(row(layout, 2, MapNodeKind::switch_node)) == numbered("spine", 16));
    CHECK(names(row(layout, 1, MapNodeKind::switch_node)) == numbered("leaf", 16));
  }
}
