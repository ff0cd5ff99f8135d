// SPDX-License-Identifier: MIT
// What the operator names on ibpm-routes' command line, found in the fabric: "leaf01[7]" (a
// node by name, GUID or LID, and a port), or a node alone where it has one port that fits
// (a host with one cabled port with a LID; a node with one cable). Throws with a one-line reason.
#pragma once

#include <optional>
#include <string>

#include "fabric/node_name_map.hpp"
#include "routes/route_map.hpp"

namespace ibpm::tools {

struct NodePort {
  const Node* node = nullptr;
  std::optional<PortNumber> port;
};

// "leaf01[7]" -> (leaf01, 7); "cn0001" -> (cn0001, none). A name that itself ends in "[N]" is
// tried whole when no node has the name before the bracket.
NodePort resolve_node_port(const Fabric& fabric, const NodeNameMap* names, const std::string& text);

// A host endpoint: NODE[PORT], or NODE when it has a single one.
PortRef endpoint_port(const routes::RouteMap& map, const NodePort& spec, const std::string& text);

// A cabled port: NODE[PORT], or NODE when it has a single cable.
PortRef cable_port(const Fabric& fabric, const NodePort& spec, const std::string& text);

}  // namespace ibpm::tools
