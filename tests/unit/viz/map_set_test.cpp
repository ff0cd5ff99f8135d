// SPDX-License-Identifier: MIT
// The drill-down maps' folder is a name next to the overview, never a path in the map's links.
#include "viz/map_set.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "fabric/graph.hpp"
#include "map_fabrics.hpp"
#include "support/temp_dir.hpp"
#include "viz/graphviz_render.hpp"

using namespace ibpm;
using namespace ibpm::viz;

TEST_CASE("a --maps-dir that is a path is refused before anything is written") {
  const ibpm::test::TempDir dir("map-set");
  const Fabric fabric = viz::test::fat_tree_648();
  const levels::FabricLevels levels(fabric, make_graph(fabric));
  MapSetOptions options;
  options.map.fold = FoldMode::pods;
  const std::string overview = dir / "fabric.svg";
  for (const std::string& bad : {dir / "maps", std::string("../maps"), std::string("..")}) {
    options.maps_dir = bad;
    GraphvizRenderer renderer;
    CHECK_THROWS_WITH(
        write_map_set(fabric, levels, {}, options, MapFormat::svg, overview, renderer),
        "--maps-dir " + bad +
            ": give a folder name (it is made next to the output and named in the "
            "map's links), not a path");
  }
  CHECK(std::filesystem::is_empty(dir.path()));
}
