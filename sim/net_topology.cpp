// SPDX-License-Identifier: MIT

#include "sim/net_topology.hpp"

#include <algorithm>
#include <stdexcept>

namespace ibpm::sim {

PortSetting active_setting(const NetLink& link) {
  return {std::min(link.a_setting.width, link.b_setting.width),
          std::min(link.a_setting.speed, link.b_setting.speed)};
}

std::size_t NetTopology::add_node(NodeType type, std::string name, int port_count) {
  if (type != NodeType::ca && type != NodeType::sw)
    throw std::invalid_argument("net node '" + name + "': only CAs and switches are supported");
  if (name.empty() || name.find_first_of("\"#@") != std::string::npos)
    throw std::invalid_argument("net node name '" + name + "' is empty or holds '\"', '#' or '@'");
  // ibsim keeps node ids in 65 bytes and NodeDescription in 64.
  if (name.size() > 63) throw std::invalid_argument("net node name '" + name + "' is too long");
  if (port_count < 1 || port_count > 254)
    throw std::invalid_argument("net node '" + name + "': port count must be 1..254");
  if (by_name_.count(name)) throw std::invalid_argument("duplicate net node '" + name + "'");
  std::size_t index = nodes_.size();
  by_name_.emplace(name, index);
  nodes_.push_back(NetNode{type, std::move(name), port_count});
  port_links_.emplace_back(static_cast<std::size_t>(port_count) + 1);
  return index;
}

void NetTopology::check_port(NetPort port) const {
  if (port.node >= nodes_.size()) throw std::invalid_argument("no such net node");
  if (port.port < 1 || port.port > nodes_[port.node].port_count)
    throw std::invalid_argument("no port " + std::to_string(port.port) + " on '" +
                                nodes_[port.node].name + "'");
}

std::size_t NetTopology::connect(NetPort a, NetPort b, PortSetting setting) {
  check_port(a);
  check_port(b);
  if (a == b) throw std::invalid_argument("cannot cable " + port_name(a) + " to itself");
  for (NetPort p : {a, b})
    if (port_links_[p.node][p.port])
      throw std::invalid_argument("port " + port_name(p) + " is already cabled");
  std::size_t index = links_.size();
  links_.push_back(NetLink{a, b, setting, setting});
  port_links_[a.node][a.port] = index;
  port_links_[b.node][b.port] = index;
  return index;
}

std::optional<std::size_t> NetTopology::find_node(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::size_t> NetTopology::link_at(NetPort port) const {
  if (port.node >= nodes_.size() || port.port < 1 || port.port > nodes_[port.node].port_count)
    return std::nullopt;
  return port_links_[port.node][port.port];
}

std::optional<NetPort> NetTopology::peer(NetPort port) const {
  auto link = link_at(port);
  if (!link) return std::nullopt;
  const NetLink& l = links_[*link];
  return l.a == port ? l.b : l.a;
}

const PortSetting& NetTopology::setting(NetPort port) const {
  auto link = link_at(port);
  if (!link) throw std::invalid_argument("port is not cabled");
  const NetLink& l = links_[*link];
  return l.a == port ? l.a_setting : l.b_setting;
}

void NetTopology::set_setting(NetPort port, PortSetting setting) {
  check_port(port);
  auto link = link_at(port);
  if (!link) throw std::invalid_argument("port " + port_name(port) + " is not cabled");
  NetLink& l = links_[*link];
  (l.a == port ? l.a_setting : l.b_setting) = setting;
}

std::string NetTopology::port_name(NetPort port) const {
  std::string node = port.node < nodes_.size() ? nodes_[port.node].name : "?";
  return node + "[" + std::to_string(port.port) + "]";
}

std::size_t NetTopology::count(NodeType type) const {
  std::size_t n = 0;
  for (const NetNode& node : nodes_)
    if (node.type == type) ++n;
  return n;
}

}  // namespace ibpm::sim
