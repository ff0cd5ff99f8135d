// SPDX-License-Identifier: MIT

#include "topology/lost_cables.hpp"

#include <filesystem>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "layout/state_layout.hpp"
#include "topology/topology.hpp"

namespace ibpm::topology {

namespace {

bool cabled(const Fabric& fabric, PortRef ref) {
  const Port* port = fabric.find_port(ref);
  return port && port->link;
}

// The node in `into` (added when missing, as `from` describes it), without ports yet.
Node& node_like(Fabric& into, const Node& from) {
  Node& node = into.add_node(from.guid, from.type, from.description, from.port_count);
  node.system_image_guid = from.system_image_guid;
  node.vendor_id = from.vendor_id;
  node.device_id = from.device_id;
  return node;
}

// Copies a port's description (not its cable) from `from` into `into`.
void copy_port(Fabric& into, const Fabric& from, PortRef ref, bool keep_lid) {
  const Port* source = from.find_port(ref);
  Port& port = into.port(ref);
  if (!source) return;
  const std::optional<std::size_t> link = port.link;
  port = *source;
  port.link = link;
  if (!keep_lid) port.lid.reset();
}

}  // namespace

Fabric lost_cables(const Fabric& before, const Fabric& now) {
  Fabric lost;
  for (const Link& link : before.links()) {
    if (cabled(now, link.a) || cabled(now, link.b)) continue;
    if (!now.find(link.a.node) && !now.find(link.b.node)) continue;
    for (const PortRef& end : {link.a, link.b}) {
      const Node& node = before.node(end.node);
      node_like(lost, node);
      copy_port(lost, before, end, true);
      // A switch answers at port 0's LID: kept so that the file names the node fully.
      if (node.type == NodeType::sw && node.port(0)) copy_port(lost, before, {node.guid, 0}, true);
    }
    lost.connect(link.a, link.b);
  }
  return lost;
}

std::size_t add_lost_cables(Fabric& fabric, const Fabric& lost) {
  std::size_t added = 0;
  for (const Link& link : lost.links()) {
    if (cabled(fabric, link.a) || cabled(fabric, link.b)) continue;
    for (const PortRef& end : {link.a, link.b}) {
      const bool known = fabric.find(end.node) != nullptr;
      node_like(fabric, lost.node(end.node));
      // A node still in the fabric keeps what the discovery says of the port (Down), and the
      // lost cable's width and speed as the yardstick; a gone node keeps no LID.
      if (known) {
        Port& port = fabric.port(end);
        const Port* old = lost.find_port(end);
        if (old && !port.width) port.width = old->width;
        if (old && !port.speed) port.speed = old->speed;
      } else {
        copy_port(fabric, lost, end, false);
      }
    }
    added += fabric.connect(link.a, link.b) == ConnectResult::added;
  }
  return added;
}

Fabric load_lost_cables(const std::string& state_dir) {
  const std::string path = layout::StateLayout(state_dir).lost_cables();
  std::error_code error;
  if (!std::filesystem::exists(path, error)) return {};
  return load_topology_file(path).fabric;
}

void save_lost_cables(const std::string& state_dir, const Fabric& lost) {
  const std::string path = layout::StateLayout(state_dir).lost_cables();
  if (lost.links().empty()) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    return;
  }
  base::replace_file_with(path, [&](std::ostream& out) { dump::write_ibnetdiscover(out, lost); });
}

}  // namespace ibpm::topology
