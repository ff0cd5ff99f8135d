// SPDX-License-Identifier: MIT
// Lost cables: a cable a discovery no longer sees stays cabled for the checks (its ports are
// polled and found Down) until a discovery sees it again or the operator accepts the fabric.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "dump/ibnetdiscover_writer.hpp"
#include "layout/state_layout.hpp"
#include "support/temp_dir.hpp"
#include "topology/lost_cables.hpp"
#include "topology/topology_source.hpp"

using namespace ibpm;
using namespace ibpm::topology;
using ibpm::test::TempDir;

// Named: the unity build puts this file beside others with their own kLeaf.
namespace lost_cables_test {

constexpr Guid kLeaf = 0x100, kSpine = 0x200, kHost = 0x300, kOther = 0x400;

// leaf01: host on port 1, spine01[1] on port 7 (4x HDR) unless `spine` is false; `other` on
// port 2 when set.
Fabric fabric(bool spine, Guid other = 0) {
  Fabric f;
  f.add_node(kLeaf, NodeType::sw, "leaf01", 8);
  f.port({kLeaf, 0}).lid = 2;
  f.add_node(kHost, NodeType::ca, "host HCA-1", 1);
  f.port({kHost, 1}).lid = 3;
  f.connect({kLeaf, 1}, {kHost, 1});
  if (spine) {
    f.add_node(kSpine, NodeType::sw, "spine01", 8);
    f.port({kSpine, 0}).lid = 1;
    for (const PortRef end : {PortRef{kLeaf, 7}, PortRef{kSpine, 1}}) {
      f.port(end).width = LinkWidth::x4;
      f.port(end).speed = LinkSpeed::hdr;
      f.port(end).state = PortState::active;
    }
    f.connect({kLeaf, 7}, {kSpine, 1});
  }
  if (other) {
    f.add_node(other, NodeType::ca, "other HCA-1", 1);
    f.port({other, 1}).lid = 4;
    f.connect({kLeaf, 2}, {other, 1});
  }
  return f;
}

void write_dump(const std::string& path, const Fabric& f) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path);
  dump::write_ibnetdiscover(out, f);
}

bool cabled_to(const Fabric& f, PortRef from, PortRef to) { return f.remote(from) == to; }

TEST_CASE("a cable whose ports the new discovery has uncabled is lost, a moved one is not") {
  // The spine's cable gone; port 2's host replaced by another (a moved cable, not a lost one).
  const Fabric lost = lost_cables(fabric(true, kOther), fabric(false, kHost + 0x1000));
  REQUIRE(lost.links().size() == 1);
  CHECK(cabled_to(lost, {kLeaf, 7}, {kSpine, 1}));
  CHECK(lost_cables(fabric(true), fabric(true)).links().empty());
  // Only the host left: its cable is lost; the leaf-spine cable, both of whose ends are gone,
  // has nothing of the fabric left to be reported on.
  Fabric only_host;
  only_host.add_node(kHost, NodeType::ca, "host HCA-1", 1);
  const Fabric host_lost = lost_cables(fabric(true), only_host);
  REQUIRE(host_lost.links().size() == 1);
  CHECK(cabled_to(host_lost, {kHost, 1}, {kLeaf, 1}));
}

TEST_CASE(
    "a lost cable is cabled again - a gone end node without LIDs, the port's yardstick kept") {
  Fabric now = fabric(false);
  now.port({kLeaf, 7}).state = PortState::down;
  const Fabric lost = lost_cables(fabric(true), now);
  CHECK(add_lost_cables(now, lost) == 1);
  CHECK(cabled_to(now, {kLeaf, 7}, {kSpine, 1}));
  const Node& spine = now.node(kSpine);
  CHECK(spine.description == "spine01");
  CHECK(spine.type == NodeType::sw);
  CHECK_FALSE(now.find_port({kSpine, 0}));  // no LID to query a gone node at
  CHECK_FALSE(now.find_port({kSpine, 1})->lid);
  const Port& leaf_port = *now.find_port({kLeaf, 7});
  CHECK(leaf_port.state == PortState::down);  // what the discovery said
  CHECK(leaf_port.width == LinkWidth::x4);    // the cable's, to judge it by when it is back
  CHECK(leaf_port.speed == LinkSpeed::hdr);
  CHECK(now.node(kLeaf).port(0)->lid == 2);  // the live node as discovered
  // A port cabled again since is left alone.
  Fabric recabled = fabric(false, 0);
  recabled.add_node(kOther, NodeType::ca, "other HCA-1", 1);
  recabled.connect({kLeaf, 7}, {kOther, 1});
  CHECK(add_lost_cables(recabled, lost) == 0);
  CHECK(cabled_to(recabled, {kLeaf, 7}, {kOther, 1}));
}

TEST_CASE("discoveries keep a lost cable until one sees it again or the fabric is accepted") {
  TempDir dir("lost-cables");
  const std::string state_dir = (dir.path() / "state").string();
  const std::string lost_file = layout::StateLayout(state_dir).lost_cables();
  write_dump(state_topology_path(state_dir), fabric(true));
  bool spine_seen = false;
  const TopologySource source({.state_dir = state_dir}, [&](const DiscoveryOptions&) {
    Topology t;
    t.fabric = fabric(spine_seen);
    t.origin = "discovery";
    return t;
  });

  // The cable down: the discovery misses it, every load still has it.
  CHECK(cabled_to(source.load(TopologyRefresh::discover_now).fabric, {kLeaf, 7}, {kSpine, 1}));
  CHECK(std::filesystem::exists(lost_file));
  CHECK_FALSE(load_topology_file(state_topology_path(state_dir)).fabric.find(kSpine));
  CHECK(cabled_to(source.load(TopologyRefresh::offline).fabric, {kLeaf, 7}, {kSpine, 1}));
  // A second discovery that still misses it keeps it (the kept cable is part of "before").
  CHECK(cabled_to(source.load(TopologyRefresh::discover_now).fabric, {kLeaf, 7}, {kSpine, 1}));
  CHECK(load_lost_cables(state_dir).links().size() == 1);

  // Seen again: the file goes.
  spine_seen = true;
  CHECK(cabled_to(source.load(TopologyRefresh::discover_now).fabric, {kLeaf, 7}, {kSpine, 1}));
  CHECK_FALSE(std::filesystem::exists(lost_file));

  // Lost again, then accepted: forgotten.
  spine_seen = false;
  source.load(TopologyRefresh::discover_now);
  REQUIRE(std::filesystem::exists(lost_file));
  CHECK(source.accept_discovered(source.discover().fabric));
  CHECK_FALSE(std::filesystem::exists(lost_file));
  CHECK_FALSE(source.load(TopologyRefresh::offline).fabric.find(kSpine));
}

TEST_CASE("accepting the fabric makes no state directory the checks never used") {
  TempDir dir("lost-cables");
  const std::string state_dir = (dir.path() / "never-used").string();
  const TopologySource source({.state_dir = state_dir}, [&](const DiscoveryOptions&) {
    Topology t;
    t.fabric = fabric(true);
    return t;
  });
  CHECK_FALSE(source.accept_discovered(source.discover().fabric));
  CHECK_FALSE(std::filesystem::exists(state_dir));
}

}  // namespace lost_cables_test
