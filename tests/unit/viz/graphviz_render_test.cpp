// SPDX-License-Identifier: MIT

#include "viz/graphviz_render.hpp"

#include <graphviz/cgraph.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "fabric/graph.hpp"
#include "map_fabrics.hpp"
#include "support/temp_dir.hpp"
#include "viz/map_graph.hpp"

using namespace ibpm;
using namespace ibpm::viz;
using namespace ibpm::viz::test;
namespace fs = std::filesystem;

namespace {

// Everything Graphviz or a browser could take for markup or an escape sequence.
const std::string kHostile = "<script>alert(\"x\")</script> \\N \\G \\E \\\\ 'q' &amp; <b>";

MapGraph hostile_map() {
  const Fabric fabric = two_switches(1, 2, kHostile);
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  MapAnnotations annotations;
  size_to(annotations, fabric);
  annotations.links[link_at(fabric, {kSpine, 1})].errors_s = 2;
  annotations.window = "counters from 2024-05-01 11:00 to 2024-05-01 12:00 UTC (1 h)";
  return build_map(fabric, levels, annotations, {});
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// The distinct URLs starting with `prefix` (Graphviz repeats an edge's URL on its label).
std::set<std::string> hrefs(const std::string& svg, const std::string& prefix) {
  std::set<std::string> found;
  const std::string start = "xlink:href=\"" + prefix;
  for (auto pos = svg.find(start); pos != std::string::npos; pos = svg.find(start, pos + 1)) {
    const auto begin = pos + start.size() - prefix.size();
    found.insert(svg.substr(begin, svg.find('"', begin) - begin));
  }
  return found;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("A hostile NodeDescription is drawn as text - never as markup or an escape") {
  const std::string svg = render_map_data(hostile_map(), MapFormat::svg);
  CHECK(count(svg, "<script") == 0);
  CHECK(count(svg, "<b>") == 0);
  // The label shows the description literally: \N stays \N (not the node's name).
  CHECK(svg.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; \\N \\G \\E \\\\ &#39;q&#39; "
                 "&amp;amp; &lt;b&gt;") != std::string::npos);
  // So does the tooltip (the SVG title attribute).
  CHECK(svg.find("xlink:title=\"&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; \\N \\G \\E "
                 "\\\\ &#39;q&#39; &amp;amp; &lt;b&gt;&#10;") != std::string::npos);
  CHECK(count(svg, "n0x0000000000000020 \\") == 0);  // no \N expanded to the node name
}

TEST_CASE("The SVG has a tooltip and a URL for every node and cable - and the legend") {
  const std::string svg = render_map_data(hostile_map(), MapFormat::svg);
  CHECK(svg.find("xlink:href=\"nodes/0x0000000000000020.html\"") != std::string::npos);
  CHECK(svg.find("xlink:href=\"nodes/0x0000000000000010.html\"") != std::string::npos);
  CHECK(svg.find("xlink:href=\"links/0x0000000000000010-1.html\"") != std::string::npos);
  // Two switches, two hosts, three cables (the aggregation node is not drawn).
  CHECK(hrefs(svg, "nodes/").size() == 4);
  CHECK(hrefs(svg, "links/").size() == 3);
  CHECK(svg.find("link colour: utilization") != std::string::npos);
  CHECK(svg.find("no data") != std::string::npos);
  // Graphviz writes '-' in SVG text as "&#45;".
  CHECK(svg.find("counters from 2024&#45;05&#45;01 11:00 to 2024&#45;05&#45;01 12:00 UTC (1 h)") !=
        std::string::npos);
  CHECK(svg.find("errors 2.00/s") != std::string::npos);
  CHECK(svg.find("stroke-dasharray") != std::string::npos);  // the erroneous cable is dashed
}

TEST_CASE("The DOT output is the graph before layout - readable by Graphviz again") {
  const std::string dot = render_map_data(hostile_map(), MapFormat::dot);
  CHECK(dot.find("pos=") == std::string::npos);
  CHECK(dot.find("rank=same") != std::string::npos);
  Agraph_t* g = agmemread(dot.c_str());
  REQUIRE(g != nullptr);
  CHECK(agnnodes(g) == 5);  // two switches, two hosts, the legend
  agclose(g);
}

TEST_CASE("The format follows the file name's extension") {
  CHECK(format_for_path("map.svg") == MapFormat::svg);
  CHECK(format_for_path("/var/www/Map.PNG") == MapFormat::png);
  CHECK(format_for_path("map.pdf") == MapFormat::pdf);
  CHECK(format_for_path("map.dot") == MapFormat::dot);
  CHECK_FALSE(format_for_path("map.jpg"));
  CHECK_FALSE(format_for_path("map"));
  CHECK_FALSE(format_for_path("dir.svg/map"));
}

TEST_CASE("Map files are replaced whole: a failed render leaves the old file and no debris") {
  ibpm::test::TempDir dir("viz-test");
  const fs::path target = dir.path() / "map.svg";
  std::ofstream(target) << "old map";
  render_map(hostile_map(), MapFormat::svg, target.string());
  const std::string svg = read(target);
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);

  const fs::path png = dir.path() / "map.png";
  render_map(hostile_map(), MapFormat::png, png.string());
  CHECK(read(png).substr(1, 3) == "PNG");

  CHECK_THROWS(
      render_map(hostile_map(), MapFormat::svg, (dir.path() / "no/such/dir/map.svg").string()));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++files;
  CHECK(files == 2);  // map.svg and map.png, no temporary left
}

TEST_CASE(
    "A congestion root is a double line, the ports waiting behind it dotted - the legend "
    "says so") {
  const Fabric fabric = two_switches(1, 2);
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  MapAnnotations annotations;
  size_to(annotations, fabric);
  // The leaf's port to host 1 is full: the root; the spine's port down to the leaf waits.
  annotate_congestion(fabric, annotations,
                      {{{kLeaf, 1}, CongestionMark::root}, {{kSpine, 1}, CongestionMark::victim}});
  const std::size_t to_host = link_at(fabric, {host_guid(1), 1});
  const std::size_t uplink = link_at(fabric, {kSpine, 1});
  const Link& host_link = fabric.links()[to_host];
  const DirectionLoad& root_direction = host_link.a == PortRef{kLeaf, 1}
                                            ? annotations.links[to_host].a_to_b
                                            : annotations.links[to_host].b_to_a;
  CHECK(root_direction.congestion == CongestionMark::root);
  const MapGraph map = build_map(fabric, levels, annotations, {});
  std::size_t roots = 0, victims = 0;
  for (const MapEdge& e : map.edges) {
    roots += e.congestion == CongestionMark::root;
    victims += e.congestion == CongestionMark::victim;
    if (e.links == std::vector<std::size_t>{uplink}) CHECK(e.congestion == CongestionMark::victim);
  }
  CHECK(roots == 1);
  CHECK(victims == 1);
  const std::string dot = render_map_data(map, MapFormat::dot);
  CHECK(count(dot, "style=dotted") == 1);
  CHECK(count(dot, ":#ffffff:") == 1);
  const std::string svg = render_map_data(map, MapFormat::svg);
  CHECK(svg.find("double line: a congestion root") != std::string::npos);
  CHECK(svg.find("waits for credits behind a congestion root") != std::string::npos);
}
