// SPDX-License-Identifier: MIT

#include "sim/lft_paths.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>

#include "routes/route_map.hpp"

namespace ibpm::sim {

std::vector<std::vector<NetPort>> lft_paths(const NetTopology& topology, const Fabric& fabric,
                                            const routes::ForwardingTables& tables,
                                            const std::vector<Flow>& flows) {
  const routes::RouteMap map(fabric, tables);
  std::unordered_map<std::string, Guid> guid_by_name;
  for (const Node& node : fabric.nodes()) guid_by_name.emplace(node.description, node.guid);

  auto endpoint = [&](const Flow& flow, const std::string& host) -> const routes::Endpoint& {
    const auto guid = guid_by_name.find(host);
    const auto ends =
        guid == guid_by_name.end() ? std::vector<std::size_t>{} : map.endpoints_of(guid->second);
    if (ends.empty())
      throw std::invalid_argument("flow " + flow.from + " -> " + flow.to + ": the fabric has no " +
                                  "host port with a LID for " + host);
    return map.endpoints()[ends.front()];
  };
  auto net_port = [&](const Flow& flow, PortRef ref) {
    const std::string& name = fabric.node(ref.node).description;
    const auto node = topology.find_node(name);
    const NetPort port{node.value_or(0), static_cast<int>(ref.port)};
    if (!node || !topology.peer(port))
      throw std::invalid_argument("flow " + flow.from + " -> " + flow.to + ": the route leaves " +
                                  name + "[" + std::to_string(ref.port) +
                                  "], not a cabled port of the net file");
    return port;
  };

  std::vector<std::vector<NetPort>> paths;
  for (const Flow& flow : flows) {
    const routes::Endpoint& from = endpoint(flow, flow.from);
    const routes::Endpoint& to = endpoint(flow, flow.to);
    const routes::Route route = map.trace(from.port, to.lid);
    if (route.end != routes::RouteEnd::delivered) {
      const Node* stop = fabric.find(route.stopped_at);
      throw std::invalid_argument("flow " + flow.from + " -> " + flow.to + ": the route stops at " +
                                  (stop ? stop->description : format_guid(route.stopped_at)) +
                                  ": " + std::string(routes::to_string(route.end)));
    }
    std::vector<NetPort> path;
    for (const routes::Hop& hop : route.hops) path.push_back(net_port(flow, hop.from));
    paths.push_back(std::move(path));
  }
  return paths;
}

}  // namespace ibpm::sim
