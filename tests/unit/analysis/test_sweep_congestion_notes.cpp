// SPDX-License-Identifier: MIT
// check_ib_fabric's long output on congestion (sweep/congestion_roots.hpp) on the congestion
// tests' fat tree: the ports that wait over their threshold name their root, the root says how
// many wait behind it, the same roots as ibpm-congestion's analysis finds.
#include <catch2/catch.hpp>

#include "congestion_fixture.hpp"
#include "sweep/congestion_roots.hpp"

using namespace ibpm;

namespace {

// A port that waits over its threshold (as sweep_loads gives it), and one that does not.
routes::EgressLoad waiting(double utilization, double wait) {
  routes::EgressLoad load;  // (members set one by one: -Wmissing-field-initializers)
  load.utilization = utilization;
  load.wait_share = wait;
  return load;
}
routes::EgressLoad busy(double utilization) {
  routes::EgressLoad load;
  load.utilization = utilization;
  return load;
}

}  // namespace

TEST_CASE("sweep congestion notes: an incast's waiting ports name the leaf port to its host") {
  const analysis::test::RoutedTree tree;
  // cn0001 (leaf01) and cn0003 (leaf02) into cn0008 (leaf04[2]), each at half of its link:
  // the senders, their uplinks and the spine's port down to leaf04 wait; leaf04[2] is full and
  // does not wait. cn0002's port is busy, nobody waits behind it.
  const PortRef up1 = tree.egress_toward("leaf01", "cn0008");
  const PortRef up2 = tree.egress_toward("leaf02", "cn0008");
  const PortRef down = tree.egress_toward(tree.peer_node(up1), "cn0008");
  const PortRef root = tree.egress_toward("leaf04", "cn0008");
  routes::EgressLoads loads;
  loads[tree.host("cn0001")] = waiting(0.5, 0.5);
  loads[tree.host("cn0003")] = waiting(0.5, 0.5);
  loads[up1] = waiting(0.5, 0.4);
  loads[up2] = waiting(0.5, 0.4);
  loads[down] = waiting(1.0, 0.3);
  loads[root] = busy(1.0);
  loads[tree.host("cn0002")] = busy(0.95);

  const auto notes = sweep::congestion_notes(tree.map(), loads, nullptr);
  const std::string names_root =
      "xmit_wait over threshold: root is " + tree.name(root) + " -> cn0008[1]";
  for (const PortRef& victim : {tree.host("cn0001"), tree.host("cn0003"), up1, up2, down}) {
    INFO(tree.name(victim));
    REQUIRE(notes.contains(victim));
    CHECK(notes.at(victim).text == names_root);
    CHECK(notes.at(victim).part == sweep::CongestionPart::victim);
  }
  REQUIRE(notes.contains(root));
  CHECK(notes.at(root).part == sweep::CongestionPart::root);
  CHECK(notes.at(root).text ==
        "congestion root: 5 ports over their xmit_wait threshold wait behind it");
  CHECK_FALSE(notes.contains(tree.host("cn0002")));
  CHECK(notes.size() == 6);
}

TEST_CASE("sweep congestion notes: a waiting port with nothing congested beyond is its own root") {
  const analysis::test::RoutedTree tree;
  // leaf04's port to cn0008 waits (a slow receiver), and cn0007's port behind it; the
  // uplinks carry little.
  const PortRef tip = tree.egress_toward("leaf04", "cn0008");
  routes::EgressLoads loads;
  loads[tip] = waiting(0.3, 0.6);
  loads[tree.host("cn0007")] = waiting(0.3, 0.5);
  loads[tree.egress_toward("leaf01", "cn0008")] = busy(0.1);

  const auto notes = sweep::congestion_notes(tree.map(), loads, nullptr);
  REQUIRE(notes.contains(tip));
  CHECK(notes.at(tip).part == sweep::CongestionPart::root);
  CHECK(notes.at(tip).text ==
        "xmit_wait over threshold: root itself (nothing full or waiting beyond it)");
  REQUIRE(notes.contains(tree.host("cn0007")));
  CHECK(notes.at(tree.host("cn0007")).text ==
        "xmit_wait over threshold: root is " + tree.name(tip) + " -> cn0008[1]");
}

TEST_CASE("sweep congestion notes: no port over its threshold, no note") {
  const analysis::test::RoutedTree tree;
  routes::EgressLoads loads;
  loads[tree.host("cn0001")] = busy(0.95);
  loads[tree.egress_toward("leaf01", "cn0008")] = busy(0.95);
  CHECK(sweep::congestion_notes(tree.map(), loads, nullptr).empty());
}
