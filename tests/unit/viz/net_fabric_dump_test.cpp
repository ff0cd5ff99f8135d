// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <sstream>

#include "dump/ibnetdiscover_parser.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "sim/degrade.hpp"
#include "sim/fat_tree.hpp"
#include "sim/net_fabric.hpp"

using namespace ibpm;

TEST_CASE("A generated fat tree written as an ibnetdiscover dump reads back the same") {
  sim::FatTreeOptions options;
  options.hosts = 100;
  options.radix = 8;
  options.levels = 3;
  options.speed = LinkSpeed::edr;
  sim::FatTree tree = sim::make_fat_tree(options);
  auto slow = sim::parse_degradation("leaf01[5]=1x");
  REQUIRE(slow);
  sim::degrade_link(tree.topology, *slow);
  const Fabric fabric = sim::net_fabric(tree.topology);
  std::stringstream dump;
  dump::write_ibnetdiscover(dump, fabric);
  const Fabric back = dump::parse_ibnetdiscover(dump, "fat-tree").fabric;

  CHECK(back.nodes().size() == tree.topology.nodes().size());
  CHECK(back.links().size() == tree.topology.links().size());
  CHECK(back.count(NodeType::sw) == tree.switch_count());
  const Guid leaf01 = sim::net_node_guid("leaf01", NodeType::sw);
  const Guid cn0001 = sim::net_node_guid("cn0001", NodeType::ca);
  CHECK(back.node(leaf01).description == "leaf01");
  CHECK(back.find_port({cn0001, 1})->lid == Lid{1});  // the first node of the net file
  CHECK(back.find_port({leaf01, 1})->width == LinkWidth::x4);
  CHECK(back.find_port({leaf01, 1})->speed == LinkSpeed::edr);
  CHECK(back.find_port({leaf01, 5})->width == LinkWidth::x1);  // the degraded cable, both ends
  const PortRef far = *back.remote({leaf01, 5});
  CHECK(back.find_port(far)->width == LinkWidth::x1);
}
