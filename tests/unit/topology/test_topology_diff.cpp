// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "topology/topology_diff.hpp"

using namespace ibpm;
using namespace ibpm::topology;

namespace {
constexpr Guid kSpine = 0x10, kLeaf1 = 0x21, kLeaf2 = 0x22, kHostA = 0x31, kHostB = 0x32,
               kHostC = 0x33;

// spine <-> leaf1 (two parallel cables), spine <-> leaf2, hosts A,B under leaf1, C under leaf2.
Fabric baseline_fabric() {
  Fabric f;
  f.add_node(kSpine, NodeType::sw, "spine01", 36);
  f.add_node(kLeaf1, NodeType::sw, "leaf01", 36);
  f.add_node(kLeaf2, NodeType::sw, "leaf02", 36);
  f.add_node(kHostA, NodeType::ca, "cnA HCA-1", 1);
  f.add_node(kHostB, NodeType::ca, "cnB HCA-1", 1);
  f.add_node(kHostC, NodeType::ca, "cnC HCA-1", 1);
  f.connect({kSpine, 1}, {kLeaf1, 19});
  f.connect({kSpine, 2}, {kLeaf1, 20});
  f.connect({kSpine, 3}, {kLeaf2, 19});
  f.connect({kLeaf1, 1}, {kHostA, 1});
  f.connect({kLeaf1, 2}, {kHostB, 1});
  f.connect({kLeaf2, 1}, {kHostC, 1});
  for (const Link& l : std::vector<Link>(f.links())) {
    for (PortRef end : {l.a, l.b}) {
      f.port(end).width = LinkWidth::x4;
      f.port(end).speed = LinkSpeed::hdr;
    }
  }
  return f;
}

// Rebuilds a fabric without the given cable (as discovery would see it).
Fabric without_link(const Fabric& in, PortRef a, PortRef b) {
  Fabric out;
  for (const Node& n : in.nodes()) {
    Node& copy = out.add_node(n.guid, n.type, n.description, n.port_count);
    copy.ports = n.ports;
    for (Port& p : copy.ports) p.link.reset();
  }
  for (const Link& l : in.links()) {
    if ((l.a == a && l.b == b) || (l.a == b && l.b == a)) continue;
    out.connect(l.a, l.b);
  }
  return out;
}

bool mentions(const TopologyDiff& diff, ChangeKind kind, const std::string& text) {
  for (const auto& c : diff.changes)
    if (c.kind == kind && c.text.find(text) != std::string::npos) return true;
  return false;
}
}  // namespace

TEST_CASE("an unchanged fabric has no changes") {
  Fabric f = baseline_fabric();
  CHECK(compare_topology(&f, baseline_fabric(), nullptr).changes.empty());
}

TEST_CASE("a lost parallel link is reported with both ends") {
  Fabric base = baseline_fabric();
  Fabric now = without_link(base, {kSpine, 2}, {kLeaf1, 20});
  TopologyDiff diff = compare_topology(&base, now, nullptr);
  REQUIRE(diff.changes.size() == 1);
  CHECK(diff.count(ChangeKind::link_lost) == 1);
  CHECK(diff.changes[0].text == "link lost: spine01[2] <-> leaf01[20]");
}

TEST_CASE("a missing node is reported once / with where it was cabled") {
  Fabric base = baseline_fabric();
  Fabric now = without_link(base, {kLeaf2, 1}, {kHostC, 1});
  // Discovery would not see the host at all any more.
  Fabric pruned;
  for (const Node& n : now.nodes())
    if (n.guid != kHostC) pruned.add_node(n.guid, n.type, n.description, n.port_count);
  for (const Link& l : now.links()) pruned.connect(l.a, l.b);
  TopologyDiff diff = compare_topology(&base, pruned, nullptr);
  REQUIRE(diff.changes.size() == 1);
  CHECK(diff.count(ChangeKind::node_missing) == 1);
  CHECK(mentions(diff, ChangeKind::node_missing, "cnC HCA-1 (0x0000000000000033)"));
  CHECK(mentions(diff, ChangeKind::node_missing, "1 -> leaf02[1]"));
}

TEST_CASE("a cable moved to another port is one change naming old and new ends") {
  Fabric base = baseline_fabric();
  Fabric now = without_link(base, {kLeaf1, 2}, {kHostB, 1});
  now.connect({kLeaf1, 5}, {kHostB, 1});
  TopologyDiff diff = compare_topology(&base, now, nullptr);
  REQUIRE(diff.changes.size() == 1);
  CHECK(diff.count(ChangeKind::link_moved) == 1);
  CHECK(mentions(diff, ChangeKind::link_moved, "leaf01[2] <-> cnB HCA-1[1]"));
  CHECK(mentions(diff, ChangeKind::link_moved, "now cnB HCA-1[1] <-> leaf01[5]"));
}

TEST_CASE("new nodes and new cables between known nodes are reported") {
  Fabric base = baseline_fabric();
  Fabric now = baseline_fabric();
  now.add_node(0x34, NodeType::ca, "cnD HCA-1", 1);
  now.connect({kLeaf2, 2}, {0x34, 1});
  now.connect({kSpine, 4}, {kLeaf2, 20});
  TopologyDiff diff = compare_topology(&base, now, nullptr);
  CHECK(diff.count(ChangeKind::node_new) == 1);
  CHECK(mentions(diff, ChangeKind::node_new, "cnD HCA-1"));
  CHECK(diff.count(ChangeKind::link_new) == 1);
  CHECK(mentions(diff, ChangeKind::link_new, "spine01[4] <-> leaf02[20]"));
}

TEST_CASE("a link below the baseline's width is degraded / names from the node-name-map") {
  Fabric base = baseline_fabric();
  Fabric now = baseline_fabric();
  now.port({kSpine, 3}).width = LinkWidth::x1;
  now.port({kLeaf2, 19}).width = LinkWidth::x1;
  NodeNameMap names;
  names.set(kLeaf2, "ib-leaf-b");
  TopologyDiff diff = compare_topology(&base, now, &names);
  REQUIRE(diff.changes.size() == 1);
  CHECK(diff.changes[0].kind == ChangeKind::link_degraded);
  CHECK(diff.changes[0].text ==
        "link degraded: spine01[3] <-> ib-leaf-b[19] runs 1x HDR, expected 4x HDR");
}

TEST_CASE("without a baseline only degraded links are looked for") {
  Fabric now = baseline_fabric();
  CHECK(compare_topology(nullptr, now, nullptr).changes.empty());
}
