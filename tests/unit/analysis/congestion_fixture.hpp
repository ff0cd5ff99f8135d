// SPDX-License-Identifier: MIT
// The fabric of the congestion tests: a fat tree of 8 hosts (4 leaves of 2 hosts cn0001..cn0008,
// 2 spines) with min-hop forwarding tables. Which uplink a destination takes depends on its LID,
// so the tests ask the tables for the port a switch sends a host's traffic out of.
#pragma once

#include <string>

#include "fabric/fabric.hpp"
#include "routes/route_map.hpp"

namespace ibpm::analysis::test {

class RoutedTree {
 public:
  RoutedTree();
  RoutedTree(const RoutedTree&) = delete;
  RoutedTree& operator=(const RoutedTree&) = delete;

  const Fabric& fabric() const { return fabric_; }
  const routes::ForwardingTables& tables() const { return tables_; }
  const routes::RouteMap& map() const { return map_; }

  PortRef host(const std::string& name) const;  // the host's port 1
  PortRef port(const std::string& node, PortNumber number) const;
  // The port switch `node` forwards traffic for host `host_name` out of (REQUIREs one).
  PortRef egress_toward(const std::string& node, const std::string& host_name) const;
  // The node at the far end of a port's cable.
  std::string peer_node(const PortRef& port) const;
  // "leaf01[3]".
  std::string name(const PortRef& port) const;

 private:
  Fabric fabric_;
  routes::ForwardingTables tables_;
  routes::RouteMap map_;
};

}  // namespace ibpm::analysis::test
