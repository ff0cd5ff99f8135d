// SPDX-License-Identifier: MIT

#include "route_targets.hpp"

#include <charconv>
#include <stdexcept>
#include <vector>

#include "poll/target.hpp"

namespace ibpm::tools {

NodePort resolve_node_port(const Fabric& fabric, const NodeNameMap* names,
                           const std::string& text) {
  const std::size_t open = text.rfind('[');
  if (open != std::string::npos && open > 0 && text.back() == ']') {
    const std::string digits = text.substr(open + 1, text.size() - open - 2);
    unsigned port = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
    if (!digits.empty() && ec == std::errc{} && end == digits.data() + digits.size()) {
      if (port > 254)
        throw std::invalid_argument("port " + digits + " in '" + text + "' is not 0..254");
      try {
        return {&poll::resolve_node(fabric, names, text.substr(0, open)),
                static_cast<PortNumber>(port)};
      } catch (const poll::TargetError&) {
        // the whole text may be a name
      }
    }
  }
  return {&poll::resolve_node(fabric, names, text), std::nullopt};
}

PortRef endpoint_port(const routes::RouteMap& map, const NodePort& spec, const std::string& text) {
  if (spec.port) {
    if (!map.endpoint_of({spec.node->guid, *spec.port}))
      throw std::invalid_argument("'" + text + "' is not a host port with a LID and a cable");
    return {spec.node->guid, *spec.port};
  }
  const auto found = map.endpoints_of(spec.node->guid);
  if (found.empty())
    throw std::invalid_argument("'" + text + "' is not a host with a cabled port with a LID");
  if (found.size() > 1)
    throw std::invalid_argument("'" + text + "' has " + std::to_string(found.size()) +
                                " cabled ports: name one as NODE[PORT]");
  return map.endpoints()[found.front()].port;
}

PortRef cable_port(const Fabric& fabric, const NodePort& spec, const std::string& text) {
  if (spec.port) return {spec.node->guid, *spec.port};
  std::vector<PortNumber> cabled;
  for (const Port& p : spec.node->ports)
    if (p.present && p.number > 0 && fabric.remote({spec.node->guid, p.number}))
      cabled.push_back(p.number);
  if (cabled.size() != 1)
    throw std::invalid_argument("'" + text + "' has " + std::to_string(cabled.size()) +
                                " cables: name one as NODE[PORT]");
  return {spec.node->guid, cabled.front()};
}

}  // namespace ibpm::tools
