// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "map_fabrics.hpp"
#include "viz/degraded_links.hpp"
#include "viz/map_model.hpp"

using namespace ibpm;
using namespace ibpm::viz;
using namespace ibpm::viz::test;

TEST_CASE("A link below what both ends enable is marked degraded") {
  Fabric fabric = two_switches(2, 0);
  for (PortNumber p : {PortNumber{1}, PortNumber{2}})
    for (PortRef end : {PortRef{kSpine, p}, PortRef{kLeaf, static_cast<PortNumber>(20 + p)}})
      fabric.port(end).widths_enabled.insert(LinkWidth::x4);
  fabric.port({kSpine, 2}).width = LinkWidth::x1;
  MapAnnotations annotations;
  CHECK(mark_degraded_links(fabric, annotations) == 1);
  const LinkAnnotation& slow = annotations.links[link_at(fabric, {kSpine, 2})];
  CHECK(slow.degraded);
  CHECK(slow.degradation.find("1x") != std::string::npos);
  CHECK_FALSE(annotations.links[link_at(fabric, {kSpine, 1})].degraded);
}

TEST_CASE("Node health: errors are critical - degraded links a warning - measured links ok") {
  const Fabric fabric = two_switches(2, 2);
  MapAnnotations annotations;
  size_to(annotations, fabric);
  annotations.links[link_at(fabric, {kSpine, 1})].errors_s = 1;
  annotations.links[link_at(fabric, {kSpine, 2})].degraded = true;
  annotations.links[link_at(fabric, {host_guid(1), 1})].utilization = 0.2;
  annotations.nodes[fabric.index_of(host_guid(2))].health = Health::warning;  // from elsewhere
  derive_node_health(fabric, annotations);
  const NodeAnnotation& spine = annotations.nodes[fabric.index_of(kSpine)];
  CHECK(spine.health == Health::critical);
  CHECK(spine.health_reason == "1 link with errors, 1 degraded link");
  CHECK(annotations.nodes[fabric.index_of(host_guid(1))].health == Health::ok);
  CHECK(annotations.nodes[fabric.index_of(host_guid(2))].health == Health::warning);  // kept
  CHECK(annotations.nodes[fabric.index_of(kAggregation)].health == Health::unknown);
}
