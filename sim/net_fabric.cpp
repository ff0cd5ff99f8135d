// SPDX-License-Identifier: MIT

#include "sim/net_fabric.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

namespace ibpm::sim {

Guid net_node_guid(std::string_view name, NodeType type) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a
  for (char c : name) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  const Guid vendor = type == NodeType::sw ? 0x7cfe90 : 0x0002c9;
  return vendor << 40 | (hash & 0xffffffffffULL);
}

namespace {

constexpr std::uint32_t kMellanoxVendor = 0x02c9;
constexpr std::uint32_t kQuantumDevice = 0xd2f0;    // HDR switch ASIC
constexpr std::uint32_t kConnectX6Device = 0x101b;  // HDR HCA
constexpr std::size_t kFirstMulticastLid = 0xc000;

void set_active_rate(Fabric& fabric, PortRef end, const NetLink& link) {
  const PortSetting active = active_setting(link);
  Port& port = fabric.port(end);
  port.width = active.width;
  port.speed = active.speed;
  port.state = PortState::active;
}

}  // namespace

Fabric net_fabric(const NetTopology& topology, const NetFabricOptions& options) {
  std::vector<std::size_t> node_order(topology.nodes().size());
  std::iota(node_order.begin(), node_order.end(), std::size_t{0});
  std::vector<NetLink> links = topology.links();
  if (options.shuffle_seed) {
    std::mt19937 random(*options.shuffle_seed);
    std::shuffle(node_order.begin(), node_order.end(), random);
    std::shuffle(links.begin(), links.end(), random);
  }
  auto kept = [&](std::size_t i) { return !options.without.contains(topology.node(i).name); };
  auto guid = [&](std::size_t i) {
    return net_node_guid(topology.node(i).name, topology.node(i).type);
  };
  Fabric fabric;
  for (std::size_t i : node_order) {
    if (!kept(i)) continue;
    const NetNode& n = topology.node(i);
    const bool is_switch = n.type == NodeType::sw;
    Node& node = fabric.add_node(guid(i), n.type, n.name, n.port_count);
    node.vendor_id = kMellanoxVendor;
    node.device_id = is_switch ? kQuantumDevice : kConnectX6Device;
    node.system_image_guid = node.guid;
    const Guid node_guid = node.guid;
    const std::optional<Lid> lid =
        i + 1 < kFirstMulticastLid ? std::optional<Lid>(static_cast<Lid>(i + 1)) : std::nullopt;
    if (is_switch) {
      Port& p0 = fabric.port({node_guid, 0});
      p0.lid = lid;
      p0.guid = node_guid;
    } else {
      for (int p = 1; p <= n.port_count; ++p) {
        Port& port = fabric.port({node_guid, static_cast<PortNumber>(p)});
        port.lid = lid;
        port.guid = node_guid + static_cast<Guid>(p);
      }
    }
  }
  for (const NetLink& link : links) {
    if (!kept(link.a.node) || !kept(link.b.node)) continue;
    const PortRef a{guid(link.a.node), static_cast<PortNumber>(link.a.port)};
    const PortRef b{guid(link.b.node), static_cast<PortNumber>(link.b.port)};
    if (fabric.connect(a, b) != ConnectResult::added) continue;
    set_active_rate(fabric, a, link);
    set_active_rate(fabric, b, link);
  }
  return fabric;
}

}  // namespace ibpm::sim
