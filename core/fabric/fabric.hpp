// SPDX-License-Identifier: MIT
// The fabric model: nodes keyed by GUID, ports keyed by (node GUID, port number), links as a
// multigraph (parallel links between two switches and self-loop cables on one switch are real).
// Every topology input (text dumps, libibnetdisc discovery and cache files) produces a Fabric.
#pragma once

#include <compare>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm {

struct PortRef {
  Guid node = 0;
  PortNumber port = 0;
  friend auto operator<=>(const PortRef&, const PortRef&) = default;
};

struct Port {
  PortNumber number = 0;
  bool present = false;  // false for port numbers nothing was learnt about
  std::optional<Guid> guid;
  std::optional<Lid> lid;  // absent when unknown or bogus (0, >= 0xc000 multicast/permissive)
  std::uint8_t lmc = 0;
  PortState state = PortState::unknown;
  std::optional<LinkWidth> width;  // active
  std::optional<LinkSpeed> speed;  // active
  WidthSet widths_enabled;         // empty when unknown (text dumps carry only active values)
  SpeedSet speeds_enabled;
  std::string label;                // external label, e.g. "1/2/1" on Quantum-2 cages
  std::optional<std::size_t> link;  // index into Fabric::links()
  friend bool operator==(const Port&, const Port&) = default;
};

// A port's link as its PortInfo says it: what a sweep keeps of a live read, per port and in
// its record (a Port also names the port and its place in the topology: 96 bytes against 8).
struct LinkState {
  PortState state = PortState::unknown;
  std::optional<LinkWidth> width;  // active
  std::optional<LinkSpeed> speed;  // active
  WidthSet widths_enabled;         // empty when unknown
  SpeedSet speeds_enabled;

  friend bool operator==(const LinkState&, const LinkState&) = default;
};

LinkState link_state_of(const Port& port);

struct Node {
  Guid guid = 0;
  NodeType type = NodeType::unknown;
  std::string description;
  Guid system_image_guid = 0;
  std::uint32_t vendor_id = 0;
  std::uint32_t device_id = 0;
  int port_count = 0;
  std::vector<Port> ports;  // indexed by port number, size port_count + 1

  const Port* port(PortNumber number) const;
  // Ports that something is known about, in port number order.
  template <typename F>
  void for_each_port(F&& f) const {
    for (const Port& p : ports)
      if (p.present) f(p);
  }
  friend bool operator==(const Node&, const Node&) = default;
};

struct Link {
  PortRef a;
  PortRef b;
  friend bool operator==(const Link&, const Link&) = default;
};

enum class ConnectResult { added, already_known, conflict };

class Fabric {
 public:
  // Adds a node, or returns the existing one with the same GUID (its port count grows if needed).
  Node& add_node(Guid guid, NodeType type, std::string description, int port_count);

  const Node* find(Guid guid) const;
  Node* find(Guid guid);
  const Node& node(Guid guid) const;  // throws std::out_of_range

  // Marks the port present (growing the node's port table if needed) and returns it.
  Port& port(PortRef ref);
  const Port* find_port(PortRef ref) const;

  // Cables a to b. Idempotent: the same cable seen from its other end is already_known.
  // A port that is already cabled elsewhere gives conflict and changes nothing.
  ConnectResult connect(PortRef a, PortRef b);

  // The port at the other end of ref's cable, if any.
  std::optional<PortRef> remote(PortRef ref) const;

  const std::vector<Node>& nodes() const { return nodes_; }
  const std::vector<Link>& links() const { return links_; }
  std::size_t index_of(Guid guid) const;  // position in nodes(); throws std::out_of_range
  std::size_t count(NodeType type) const;

  // Every node, port and cable alike, in the same order.
  friend bool operator==(const Fabric&, const Fabric&) = default;

 private:
  Port* find_port_mutable(PortRef ref);

  std::vector<Node> nodes_;
  std::vector<Link> links_;
  std::unordered_map<Guid, std::size_t> by_guid_;
};

// The name operators see for a node: node-name-map entry, else the NodeDescription.
class NodeNameMap;
std::string display_name(const Node& node, const NodeNameMap* names);

// "leaf01[3]": a port named for humans.
std::string port_name(const Fabric& fabric, PortRef ref, const NodeNameMap* names);

}  // namespace ibpm
