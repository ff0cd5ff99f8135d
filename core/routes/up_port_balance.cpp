// SPDX-License-Identifier: MIT

#include "routes/up_port_balance.hpp"

#include <algorithm>

namespace ibpm::routes {

std::vector<SwitchBalance> up_port_balance(const RouteMap& map,
                                           const levels::FabricLevels& levels) {
  const auto& nodes = map.fabric().nodes();
  std::vector<SwitchBalance> result;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& node = nodes[i];
    if (node.type != NodeType::sw || !map.tables().find(node.guid)) continue;
    SwitchBalance balance;
    balance.node = node.guid;
    balance.level = levels.level(i);
    std::vector<int> slot_of(node.ports.size(), -1);
    for (const Port& port : node.ports) {
      if (!port.present || port.number == 0) continue;
      const auto peer = map.peer(i, port.number);
      if (!peer || nodes[peer->first].type != NodeType::sw) continue;
      if (levels.level(peer->first) <= balance.level || balance.level == levels::kNoLevel) continue;
      slot_of[port.number] = static_cast<int>(balance.up_ports.size());
      balance.up_ports.push_back({port.number, {nodes[peer->first].guid, peer->second}, 0});
    }
    if (balance.up_ports.size() < 2) continue;
    for (const Endpoint& e : map.endpoints()) {
      const RouteMap::Step s = map.step(i, e.lid);
      if (s.forwards && s.egress < slot_of.size() && slot_of[s.egress] >= 0)
        ++balance.up_ports[static_cast<std::size_t>(slot_of[s.egress])].destinations;
    }
    const auto [low, high] = std::minmax_element(
        balance.up_ports.begin(), balance.up_ports.end(),
        [](const UpPortLoad& a, const UpPortLoad& b) { return a.destinations < b.destinations; });
    balance.fewest = low->destinations;
    balance.most = high->destinations;
    result.push_back(std::move(balance));
  }
  std::stable_sort(
      result.begin(), result.end(),
      [](const SwitchBalance& a, const SwitchBalance& b) { return a.spread() > b.spread(); });
  return result;
}

}  // namespace ibpm::routes
