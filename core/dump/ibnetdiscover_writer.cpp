// SPDX-License-Identifier: MIT

#include "dump/ibnetdiscover_writer.hpp"

#include <string>

#include "dump/fabric_order.hpp"
#include "dump/ibnetdiscover_syntax.hpp"

namespace ibpm::dump {
namespace {

bool needs_cleaning(std::string_view text) {
  return text.find_first_of("\"\n\r") != std::string_view::npos;
}

std::string ibnetdiscover_description(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c == '"') c = '\'';
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out;
}

std::string clean_label(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c == '(' || c == ')' || c == '"' || c == '\n' || c == '\r') c = '_';
  return out;
}

std::string quoted_id(const Node& node) {
  return std::string("\"") + ibnd::id_prefix(node.type) + "-" + hex16(node.guid) + "\"";
}

// The GUID switch ports share (printed in parentheses after switchguid=).
Guid switch_port_guid(const Node& node) {
  if (const Port* p0 = node.port(0); p0 && p0->guid) return *p0->guid;
  for (const Port& p : node.ports)
    if (p.present && p.guid) return *p.guid;
  return node.guid;
}

// The LID ibnetdiscover prints for a peer: port 0's for switches, the port's own otherwise.
Lid peer_lid(const Fabric& fabric, const Node& node, PortNumber port) {
  const Port* p = fabric.find_port({node.guid, node.type == NodeType::sw ? PortNumber{0} : port});
  return p && p->lid ? *p->lid : 0;
}

std::string width_speed(const Port& port) {
  std::string out(port.width ? to_string(*port.width) : "??");
  out += port.speed ? to_string(*port.speed) : "???";
  return out;
}

void write_header(std::string& s, const Node& node) {
  s += "\nvendid=0x" + hex(node.vendor_id) + "\ndevid=0x" + hex(node.device_id) + "\n";
  if (node.system_image_guid) s += "sysimgguid=0x" + hex(node.system_image_guid) + "\n";
  const std::string desc = ibnetdiscover_description(node.description);
  const std::string ports = std::to_string(node.port_count);
  if (node.type == NodeType::sw) {
    const Port* p0 = node.port(0);
    s += "switchguid=0x" + hex(node.guid) + "(" + hex(switch_port_guid(node)) + ")\n";
    s += "Switch\t" + ports + " " + quoted_id(node) + "\t\t# \"" + desc + "\" base port 0 lid " +
         std::to_string(p0 && p0->lid ? *p0->lid : 0) + " lmc " + std::to_string(p0 ? p0->lmc : 0) +
         "\n";
    return;
  }
  if (node.type == NodeType::unknown) s += "# node of unknown type, written as a CA\n";
  const bool router = node.type == NodeType::router;
  s += std::string(router ? "rtguid=0x" : "caguid=0x") + hex(node.guid) + "\n";
  s += std::string(router ? "Rt\t" : "Ca\t") + ports + " " + quoted_id(node) + "\t\t# \"" + desc +
       "\"\n";
}

void write_port(std::string& s, const Fabric& fabric, const Node& node, PortNumber number) {
  const Port& port = node.ports[number];
  const PortRef peer_ref = *fabric.remote({node.guid, number});
  const Node& peer = fabric.node(peer_ref.node);
  const Port* peer_port = fabric.find_port(peer_ref);
  const bool is_switch = node.type == NodeType::sw;
  s += "[" + std::to_string(number) + "]";
  if (!port.label.empty()) s += "(" + clean_label(port.label) + ")";
  if (!is_switch) s += "(" + hex(port.guid.value_or(0)) + ") ";
  s += "\t" + quoted_id(peer) + "[" + std::to_string(peer_ref.port) + "]";
  if (peer.type != NodeType::sw) {
    const std::string guid = hex(peer_port && peer_port->guid ? *peer_port->guid : 0);
    s += is_switch ? "(" + guid + ") " : " (" + guid + ") ";
  }
  s += "\t\t# ";
  if (!is_switch)
    s += "lid " + std::to_string(port.lid.value_or(0)) + " lmc " + std::to_string(port.lmc) + " ";
  s += "\"" + ibnetdiscover_description(peer.description) + "\" lid " +
       std::to_string(peer_lid(fabric, peer, peer_ref.port)) + " " + width_speed(port) + "\n";
}

}  // namespace

void write_ibnetdiscover(std::ostream& out, const Fabric& fabric) {
  const std::vector<const Node*> nodes = nodes_in_write_order(fabric);
  std::string s = "#\n# Topology file: written by ibpm from its fabric model\n#\n";
  for (const Node* n : nodes) {
    if (needs_cleaning(n->description)) {
      s += "# Note: '\"' and line breaks cannot appear in descriptions in this format;\n"
           "# they were written as \"'\" and ' '.\n";
      break;
    }
  }
  out << s;
  for (const Node* n : nodes) {
    s.clear();
    write_header(s, *n);
    // By index: a port's number field is not trusted (see Fabric::add_node growth).
    for (std::size_t i = 1; i < n->ports.size(); ++i)
      if (n->ports[i].present && n->ports[i].link)
        write_port(s, fabric, *n, static_cast<PortNumber>(i));
    out << s;
  }
}

}  // namespace ibpm::dump
