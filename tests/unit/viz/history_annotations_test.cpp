// SPDX-License-Identifier: MIT

#include "viz/history_annotations.hpp"

#include <catch2/catch.hpp>

#include "map_fabrics.hpp"

using namespace ibpm;
using namespace ibpm::viz;
using namespace ibpm::viz::test;

TEST_CASE("Link usage and subtree locality become the map's annotations") {
  const Fabric fabric = two_switches(1, 2);
  const std::size_t uplink = link_at(fabric, {kSpine, 1});

  history::LinkUsage usage;
  usage.link = uplink;
  usage.capacity_octets_s = 25e9;
  usage.a_to_b.measured = true;
  usage.a_to_b.average_octets_s = 5e9;
  usage.a_to_b.average_util = 0.2;
  usage.a_to_b.peak_util = 0.5;
  usage.a_to_b.xmit_wait_pct = 1.5;
  usage.b_to_a.measured = true;
  usage.b_to_a.average_octets_s = 10e9;
  usage.b_to_a.average_util = 0.4;
  usage.errors_s = 0.5;

  locality::NodeSet subtree;
  subtree.subtree = true;
  subtree.roots = {fabric.index_of(kLeaf)};
  locality::NodeSet operator_set;  // not a subtree: colours nothing
  operator_set.roots = {fabric.index_of(kSpine)};
  locality::SetTraffic traffic;
  traffic.set = &subtree;
  traffic.l = 0.75;
  traffic.l_gen = 0.5;
  traffic.l_con = 1.0;
  locality::SetTraffic other;
  other.set = &operator_set;
  other.l = 0.1;

  history::WindowCoverage coverage(history::Window{1714561200, 1714564800});
  history::PortHistory uplink_history;  // 14 rows of a minute known in the hour
  uplink_history.found = true;
  uplink_history.step = 60;
  uplink_history.covered = 14 * 60;
  coverage.add(uplink_history);
  const MapAnnotations a = annotations_from_history(fabric, {usage}, {traffic, other}, coverage);
  REQUIRE(a.links.size() == fabric.links().size());
  const LinkAnnotation& link = a.links[uplink];
  CHECK(link.utilization == Approx(0.4));  // the busier direction
  CHECK(link.octets_s == Approx(15e9));
  CHECK(link.a_to_b.peak_util == Approx(0.5));
  CHECK(link.a_to_b.xmit_wait_pct == Approx(1.5));
  CHECK(link.errors_s == 0.5);
  CHECK_FALSE(a.links[link_at(fabric, {host_guid(1), 1})].utilization);
  CHECK(a.nodes[fabric.index_of(kLeaf)].locality == Approx(0.75));
  CHECK(a.nodes[fabric.index_of(kLeaf)].locality_gen == Approx(0.5));
  CHECK_FALSE(a.nodes[fabric.index_of(kSpine)].locality);
  CHECK(a.window ==
        "counters from 2024-05-01 11:00 to 2024-05-01 12:00 UTC (1 h); history for 14 min "
        "of the last 60 min (RRD step 60 s)");
}
