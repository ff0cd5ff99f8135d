// SPDX-License-Identifier: MIT

#include "map_fabrics.hpp"

#include "sim/net_fabric.hpp"

namespace ibpm::viz::test {

Fabric fat_tree_648() {
  sim::FatTreeOptions options;
  options.hosts = 648;
  options.radix = 36;
  return sim::net_fabric(sim::make_fat_tree(options).topology);
}

Guid host_guid(int i) { return 0x100 + static_cast<Guid>(i); }

namespace {

void cable(Fabric& fabric, PortRef a, PortRef b) {
  fabric.connect(a, b);
  for (PortRef end : {a, b}) {
    Port& p = fabric.port(end);
    p.width = LinkWidth::x4;
    p.speed = LinkSpeed::hdr;
    p.state = PortState::active;
  }
}

}  // namespace

Fabric two_switches(int parallel, int hosts, const std::string& leaf_description) {
  Fabric fabric;
  fabric.add_node(kSpine, NodeType::sw, "spine01", 40);
  fabric.add_node(kLeaf, NodeType::sw, leaf_description, 40);
  fabric.add_node(kAggregation, NodeType::ca, "Mellanox Technologies Aggregation Node", 1);
  for (int i = 1; i <= parallel; ++i)
    cable(fabric, {kSpine, static_cast<PortNumber>(i)}, {kLeaf, static_cast<PortNumber>(20 + i)});
  for (int i = 1; i <= hosts; ++i) {
    fabric.add_node(host_guid(i), NodeType::ca, "host" + std::to_string(i), 1);
    cable(fabric, {kLeaf, static_cast<PortNumber>(i)}, {host_guid(i), 1});
  }
  cable(fabric, {kLeaf, 40}, {kAggregation, 1});
  return fabric;
}

std::size_t link_at(const Fabric& fabric, PortRef end) { return *fabric.find_port(end)->link; }

}  // namespace ibpm::viz::test
