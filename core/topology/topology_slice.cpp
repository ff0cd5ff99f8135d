// SPDX-License-Identifier: MIT

#include "topology/topology_slice.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_parser.hpp"
#include "dump/ibnetdiscover_writer.hpp"
#include "layout/state_layout.hpp"

namespace ibpm::topology {

namespace fs = std::filesystem;

namespace {

// The NODE argument as a file name: [A-Za-z0-9._-] kept, everything else as %XX.
std::string file_name_of(const std::string& node) {
  std::string name;
  for (unsigned char c : node) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '-') {
      name += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      name += escaped;
    }
  }
  return name == "." || name == ".." ? "%2E" + name.substr(1) : name;
}

fs::path slice_path(const SliceKey& key) {
  return layout::StateLayout(key.state_dir).slice(file_name_of(key.node));
}

std::string stamp(const std::string& path) {
  std::error_code error;
  const auto time = fs::last_write_time(path, error);
  if (error) return "none";
  return std::to_string(time.time_since_epoch().count());
}

// The first line of a slice: what it was cut from, as of when.
std::string tag(const SliceKey& key) {
  std::string line = "# ibpm slice of " + key.source + " " + stamp(key.source);
  if (!key.node_name_map.empty())
    line += " names " + key.node_name_map + " " + stamp(key.node_name_map);
  return line;
}

void copy_port(const Port& from, Port& to) {
  const PortNumber number = to.number;
  to = from;
  to.number = number;
  to.link.reset();
}

}  // namespace

Fabric slice_of(const Fabric& fabric, const Node& node) {
  Fabric slice;
  Node& copy = slice.add_node(node.guid, node.type, node.description, node.port_count);
  copy.system_image_guid = node.system_image_guid;
  copy.vendor_id = node.vendor_id;
  copy.device_id = node.device_id;
  for (const Port& port : node.ports)
    if (port.present) copy_port(port, slice.port(PortRef{node.guid, port.number}));
  for (const Port& port : node.ports) {
    if (!port.present) continue;
    const auto remote = fabric.remote(PortRef{node.guid, port.number});
    if (!remote) continue;
    const Node& peer = fabric.node(remote->node);
    slice.add_node(peer.guid, peer.type, peer.description, peer.port_count);
    copy_port(*peer.port(remote->port), slice.port(*remote));
    if (peer.type == NodeType::sw && peer.port(0))  // a switch's LID lives on port 0
      copy_port(*peer.port(0), slice.port(PortRef{peer.guid, 0}));
    slice.connect(PortRef{node.guid, port.number}, *remote);
  }
  return slice;
}

std::optional<Topology> load_slice(const SliceKey& key) {
  const fs::path path = slice_path(key);
  std::ifstream in(path, std::ios::binary);
  std::string first;
  if (!in || !std::getline(in, first) || first != tag(key)) return std::nullopt;
  try {
    in.seekg(0);
    dump::ParsedDump parsed = dump::parse_ibnetdiscover(in, path.string());
    Topology topology;
    topology.fabric = std::move(parsed.fabric);
    topology.origin = key.source;
    return topology;
  } catch (const std::exception&) {
    return std::nullopt;  // a damaged slice is cut again from the whole topology
  }
}

void save_slice(const SliceKey& key, const Fabric& fabric, const Node& node) {
  try {
    fs::create_directories(slice_path(key).parent_path());
    const Fabric slice = slice_of(fabric, node);
    base::replace_file_with(slice_path(key).string(), [&](std::ostream& out) {
      out << tag(key) << '\n';
      dump::write_ibnetdiscover(out, slice);
    });
  } catch (const std::exception&) {
  }
}

}  // namespace ibpm::topology
