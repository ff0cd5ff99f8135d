// SPDX-License-Identifier: MIT
// analysis::collect() on a spine, a leaf and 6 hosts written as a dump, with no RRD files: the
// topology and sets always, the history only as asked, the annotations only for the map.
#include "analysis/collect.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "../viz/map_fabrics.hpp"
#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"

using namespace ibpm;
namespace fs = std::filesystem;

namespace {

struct Workspace {
  fs::path dir = fs::temp_directory_path() / ("ibpm-collect-test-" + std::to_string(::getpid()));
  std::string dump = (dir / "fabric.ibnetdiscover").string();
  plugin::FabricOptions fabric_options;
  Workspace() {
    fs::create_directories(dir);
    const Fabric fabric = viz::test::two_switches(2, 6);
    base::replace_file_with(dump,
                            [&](std::ostream& out) { dump::write_ibnetdiscover(out, fabric); });
    fabric_options.cache = dump;
    fabric_options.state_dir = (dir / "no-state").string();
  }
  ~Workspace() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("collect without a state directory gives the topology and its subtrees alone") {
  Workspace ws;
  const analysis::FabricAnalysis data = analysis::collect(ws.fabric_options, {});
  CHECK(data.fabric().nodes().size() == 9);  // spine, leaf, aggregation node, 6 hosts
  REQUIRE(data.levels.has_value());
  CHECK_FALSE(data.sets.empty());
  CHECK_FALSE(data.reader.has_value());
  CHECK(data.usage.empty());
  CHECK(data.traffic.empty());
  CHECK(data.annotations.links.empty());
  CHECK(data.window.seconds() == 3600);
  CHECK(data.warnings.empty());
}

TEST_CASE("collect reads an empty history when the state directory is not required") {
  Workspace ws;
  analysis::CollectOptions options;
  options.history_needs_state_dir = false;
  options.history.window = 600;
  const analysis::FabricAnalysis data = analysis::collect(ws.fabric_options, options);
  CHECK(data.reader.has_value());
  REQUIRE(data.usage.size() == data.fabric().links().size());
  for (const auto& link : data.usage) CHECK_FALSE(link.utilization().has_value());
  CHECK(data.traffic.size() == data.sets.size());
  CHECK(data.coverage.none());
  CHECK(data.window.seconds() == 600);
  CHECK(data.ports.empty());
}

TEST_CASE("collect keeps only the sets asked for") {
  Workspace ws;
  analysis::CollectOptions options;
  options.subtrees = false;
  CHECK(analysis::collect(ws.fabric_options, options).sets.empty());
  options.subtrees = true;
  options.level = 99;
  CHECK(analysis::collect(ws.fabric_options, options).sets.empty());
}

TEST_CASE("collect annotates for the map: node health and links against a baseline") {
  Workspace ws;
  analysis::CollectOptions options;
  options.annotate = true;
  options.read_history = false;
  options.baseline = ws.dump;
  const analysis::FabricAnalysis data = analysis::collect(ws.fabric_options, options);
  REQUIRE(data.baseline.has_value());
  CHECK(data.baseline->fabric.nodes().size() == data.fabric().nodes().size());
  CHECK(data.annotations.nodes.size() == data.fabric().nodes().size());
  CHECK_FALSE(data.reader.has_value());
}
