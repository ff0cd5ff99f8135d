// SPDX-License-Identifier: MIT
// Live discovery through libibnetdisc against ibsim: what we discover is what the net file says,
// and libibnetdisc cache files survive a write/read round trip.
#include <catch2/catch.hpp>

#include "dump/ibnetdiscover_parser.hpp"
#include "sim/simulated_fabric.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "topology/live_support.hpp"
#include "topology/topology.hpp"

using namespace ibpm;
using ibpm::test::bin;
using ibpm::test::cables;

TEST_CASE("live discovery of a generated fat tree equals its net file") {
  IBPM_REQUIRE_SIMULATOR();
  sim::FatTree tree = test::small_tree(32, 8);
  auto fabric = sim::SimulatedFabric::start_text(tree.net_file());
  auto dump = fabric.work_dir() / "discovered.txt";
  auto cache = fabric.work_dir() / "discovered.cache";
  std::string out;
  REQUIRE(fabric.run_client({bin("ibpm-topology"), "--write-dump", dump.string(), "--write-cache",
                             cache.string()},
                            &out) == 0);
  CHECK(out.find("switches " + std::to_string(tree.switch_count()) + ", CAs 32") !=
        std::string::npos);

  dump::ParsedDump parsed = dump::parse_ibnetdiscover_file(dump);
  CHECK(parsed.fabric.count(NodeType::sw) == tree.switch_count());
  CHECK(parsed.fabric.count(NodeType::ca) == tree.hosts.size());
  CHECK(cables(parsed.fabric) == cables(tree.topology));
  for (const Link& link : parsed.fabric.links()) {
    const Port* port = parsed.fabric.find_port(link.a);
    CHECK(port->width == LinkWidth::x4);
    CHECK(port->speed == LinkSpeed::hdr);
  }

  SECTION("the cache file holds the same fabric, with LIDs and enabled rates") {
    topology::Topology cached = topology::load_topology_file(cache.string());
    REQUIRE(cached.ibnd);
    CHECK(cables(cached.fabric) == cables(tree.topology));
    for (const Node& node : cached.fabric.nodes()) {
      const Node* same = parsed.fabric.find(node.guid);
      REQUIRE(same);
      CHECK(same->description == node.description);
      CHECK(same->type == node.type);
    }
    const Node& leaf = *std::find_if(cached.fabric.nodes().begin(), cached.fabric.nodes().end(),
                                     [](const Node& n) { return n.description == "leaf01"; });
    REQUIRE(leaf.port(0));
    CHECK(leaf.port(0)->lid.has_value());
    const Port* up = leaf.port(5);
    REQUIRE(up);
    CHECK(up->state == PortState::active);
    CHECK(up->widths_enabled.contains(LinkWidth::x4));
    CHECK(up->speeds_enabled.contains(LinkSpeed::hdr));

    // Saved again and read back: still the same fabric.
    auto again = fabric.work_dir() / "again.cache";
    topology::save_topology(cached, again.string());
    topology::Topology reread = topology::load_topology_file(again.string());
    CHECK(cables(reread.fabric) == cables(cached.fabric));
    CHECK(reread.fabric.nodes().size() == cached.fabric.nodes().size());
  }
}
