// SPDX-License-Identifier: MIT
// Names for ibpm-routes' and check_ib_routes' output: nodes and ports as operators know them
// (node-name-map, else the NodeDescription), and the leaf a host hangs off. Raw: every output
// format escapes them.
#pragma once

#include <string>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"
#include "routes/route_map.hpp"

namespace ibpm::route_check {

class RouteNames {
 public:
  RouteNames(const routes::RouteMap& map, const NodeNameMap* names) : map_(map), names_(names) {}

  std::string node(Guid guid) const {
    const Node* n = map_.fabric().find(guid);
    return n ? display_name(*n, names_) : format_guid(guid);
  }
  std::string port(PortRef ref) const { return port_name(map_.fabric(), ref, names_); }
  // The host of an endpoint; "cn0001[2]" when the host has more than one endpoint.
  std::string endpoint(std::size_t index) const {
    const PortRef port = map_.endpoints()[index].port;
    if (map_.endpoints_of(port.node).size() > 1) return this->port(port);
    return node(port.node);
  }
  // The switch the endpoint is cabled to ("" when none).
  std::string leaf(std::size_t index) const {
    const auto& e = map_.endpoints()[index];
    if (!e.first_switch) return "";
    return display_name(map_.fabric().nodes()[*e.first_switch], names_);
  }

 private:
  const routes::RouteMap& map_;
  const NodeNameMap* names_;
};

}  // namespace ibpm::route_check
