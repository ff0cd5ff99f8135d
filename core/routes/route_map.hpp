// SPDX-License-Identifier: MIT
// The fabric and its forwarding tables together: which host ports send and receive traffic (the
// endpoints), and the route a packet to a destination LID takes from any port, hop by hop, as
// the switches forward it: from the source port to its peer switch, then out of LFT[DLID] of
// each switch until a port whose LID range holds the DLID. A route that cannot be followed says
// where and why (no route, a port with no cable, a loop, a switch whose table was not read).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fabric/fabric.hpp"
#include "routes/forwarding_tables.hpp"

namespace ibpm::routes {

// A host's cabled CA port with a LID: a source and destination of traffic.
struct Endpoint {
  PortRef port;
  Lid lid = 0;
  std::uint8_t lmc = 0;
  std::optional<std::size_t> first_switch;  // node index of its peer, when that is a switch
};

enum class RouteEnd : std::uint8_t {
  delivered,   // reached the port whose LID range holds the DLID
  no_route,    // a switch's LFT has no entry for the DLID (0xff or beyond LinearFDBTop)
  dead_end,    // a switch forwards out of a port with no cable
  loop,        // a switch was reached twice
  no_table,    // a switch whose forwarding table is unknown (not read)
  wrong_node,  // the packet reached a node that does not own the DLID
  no_cable,    // the source port has no cable
};

std::string_view to_string(RouteEnd end);

// One cable crossed: out of `from`, into `to`.
struct Hop {
  PortRef from;
  PortRef to;
};

struct Route {
  std::vector<Hop> hops;
  RouteEnd end = RouteEnd::delivered;
  Guid stopped_at = 0;  // the node where the route ended (the destination when delivered)
};

class RouteMap {
 public:
  // Keeps references: fabric and tables must outlive the map.
  RouteMap(const Fabric& fabric, const ForwardingTables& tables);

  const Fabric& fabric() const { return fabric_; }
  const ForwardingTables& tables() const { return tables_; }
  // Every host port with a LID and a cable, in fabric order.
  const std::vector<Endpoint>& endpoints() const { return endpoints_; }
  std::optional<std::size_t> endpoint_of(PortRef port) const;
  // The host endpoints of a node, in port order.
  std::vector<std::size_t> endpoints_of(Guid node) const;

  // The port that owns `lid` (a CA port's LID range, a switch's port 0).
  std::optional<PortRef> owner_of(unsigned lid) const;

  Route trace(PortRef source, unsigned dlid) const;

  // One step of forwarding at switch `node_index` toward `dlid`.
  struct Step {
    RouteEnd end = RouteEnd::delivered;  // delivered here (egress 0), or why it stops here
    bool forwards = false;               // true: leaves through `egress` to `next`
    PortNumber egress = 0;
    std::size_t next_node = 0;  // node index of the peer
    PortNumber next_port = 0;
  };
  Step step(std::size_t node_index, unsigned dlid) const;

  // Whether the port at (node index, port) owns `dlid`.
  bool owns(std::size_t node_index, PortNumber port, unsigned dlid) const;

  // The peer (node index, port) of a port, if cabled.
  std::optional<std::pair<std::size_t, PortNumber>> peer(std::size_t node_index,
                                                         PortNumber port) const;

 private:
  struct PeerSlot {
    std::int64_t node = -1;
    PortNumber port = 0;
  };
  const Fabric& fabric_;
  const ForwardingTables& tables_;
  std::vector<Endpoint> endpoints_;
  std::unordered_map<std::uint64_t, std::size_t> endpoint_index_;  // node index << 8 | port
  std::vector<const SwitchTable*> table_of_;                       // by node index
  std::vector<std::vector<PeerSlot>> peers_;                       // by node index, port
  std::unordered_map<unsigned, PortRef> lid_owner_;
};

}  // namespace ibpm::routes
