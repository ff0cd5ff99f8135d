// SPDX-License-Identifier: MIT

#include "dump/ibsim_net_writer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "dump/fabric_order.hpp"
#include "dump/ibsim_names.hpp"
#include "dump/ibsim_net_syntax.hpp"

namespace ibpm::dump {
namespace {

// ibsim keeps 63 bytes of a NodeDescription; '"' would end the quoted text.
std::string ibsim_description(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 63)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f || c == '"') ? ' ' : c;
  }
  return out;
}

const Node* default_first(const Fabric& fabric) {
  for (const Node& n : fabric.nodes()) {
    if (n.type != NodeType::ca) continue;
    for (const Port& p : n.ports)
      if (p.present && p.link) return &n;
  }
  return nullptr;
}

int written_port_count(const Node& node) {
  int count = node.port_count;
  for (std::size_t i = 1; i < node.ports.size(); ++i)
    if (node.ports[i].present && node.ports[i].link)
      count = std::max<int>(count, static_cast<int>(i));
  return std::clamp(count, 1, 255);
}

}  // namespace

void write_ibsim_net(std::ostream& out, const Fabric& fabric, const IbsimNetOptions& options) {
  std::vector<const Node*> nodes = nodes_in_write_order(fabric);
  const Node* first = nullptr;
  if (options.first_node) {
    first = fabric.find(*options.first_node);
    if (!first)
      throw std::invalid_argument("first node " + format_guid(*options.first_node) +
                                  " is not in the fabric");
  } else {
    first = default_first(fabric);
  }
  if (first) {
    nodes.erase(std::find(nodes.begin(), nodes.end(), first));
    nodes.insert(nodes.begin(), first);
  }
  const auto names = ibsim_node_names(fabric);

  std::size_t switches = 0, ports = 0;
  for (const Node* n : nodes) {
    bool as_switch = n->type == NodeType::sw || n->type == NodeType::router;
    switches += as_switch;
    ports += static_cast<std::size_t>(written_port_count(*n)) + (as_switch ? 1 : 0);
  }
  out << "# ibsim net file written by ibpm: " << nodes.size() << " nodes (" << switches
      << " switches), " << fabric.links().size() << " links.\n"
      << "# Run: ibsim -N "
      << std::max(nodes.size(), static_cast<std::size_t>(kIbsimDefaultLimits.nodes)) << " -S "
      << std::max(switches, static_cast<std::size_t>(kIbsimDefaultLimits.switches)) << " -P "
      << std::max(ports, static_cast<std::size_t>(kIbsimDefaultLimits.ports)) << " -s <this file>\n"
      << "# Node ids are unique names; the NodeDescription follows '#'.\n";

  std::string s;
  for (const Node* n : nodes) {
    s.clear();
    const bool as_switch = n->type == NodeType::sw || n->type == NodeType::router;
    const std::string& name = names.at(n->guid);
    s += "\n";
    // ibsim resets vendid= after each node but keeps devid=: write both every time. The vendor
    // matters: ibnetdiscover asks Mellanox nodes (0x2c9) only for FDR10.
    s += "vendid=0x" + hex(n->vendor_id) + "\ndevid=0x" + hex(n->device_id) + "\n";
    if (options.keep_guids) {
      if (n->system_image_guid) s += "sysimgguid=0x" + hex(n->system_image_guid) + "\n";
      s += std::string(as_switch ? "switchguid=0x" : "caguid=0x") + hex(n->guid) + "\n";
    }
    if (n->type == NodeType::router)
      s += "# router " + format_guid(n->guid) + ", written as a switch (ibsim has no routers)\n";
    s += ibsim_node_record(as_switch, written_port_count(*n)) + " \"" + name + "\"\t\t# \"" +
         ibsim_description(n->description) + "\"\n";
    for (std::size_t i = 1; i < n->ports.size(); ++i) {
      const Port& p = n->ports[i];
      if (!p.present || !p.link) continue;
      const PortRef peer = *fabric.remote({n->guid, static_cast<PortNumber>(i)});
      const std::string& peer_name = names.at(peer.node);
      s += ibsim_port_link(static_cast<int>(i), peer_name, peer.port);
      // ibsim needs both width and speed in the trailer; without them it uses its defaults.
      if (p.width && p.speed) {
        LinkSpeed speed = *p.speed;
        if (options.speed_cap && speed > *options.speed_cap) speed = *options.speed_cap;
        s += "\t\t# ";
        if (!as_switch) s += "lid 0 lmc 0 ";
        s += ibsim_link_trailer(peer_name, *p.width, speed);
      }
      s += "\n";
    }
    out << s;
  }
}

}  // namespace ibpm::dump
