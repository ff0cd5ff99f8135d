// SPDX-License-Identifier: MIT
// The cabling of a simulated fabric, as ibsim needs it: named nodes with a port count, and
// links between two ports, each end with the width and speed its port enables.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::sim {

struct NetNode {
  NodeType type = NodeType::unknown;  // ca or sw
  std::string name;                   // ibsim node id, also its NodeDescription
  int port_count = 0;
};

struct NetPort {
  std::size_t node = 0;  // index into NetTopology::nodes()
  int port = 0;          // 1-based
  friend bool operator==(const NetPort&, const NetPort&) = default;
};

// What one end of a link enables; ibsim activates the best width and speed both ends enable.
struct PortSetting {
  LinkWidth width = LinkWidth::x4;
  LinkSpeed speed = LinkSpeed::hdr;
  friend bool operator==(const PortSetting&, const PortSetting&) = default;
};

struct NetLink {
  NetPort a;
  NetPort b;
  PortSetting a_setting;
  PortSetting b_setting;
};

// What a link runs at: ibsim brings it up at the best width and speed both ends enable.
PortSetting active_setting(const NetLink& link);

class NetTopology {
 public:
  // Throws std::invalid_argument for a duplicate or unusable name (empty, or with '"', '#',
  // '@' which the net file format reserves) or a port count outside 1..254.
  std::size_t add_node(NodeType type, std::string name, int port_count);

  // Cables a to b; throws std::invalid_argument when a port does not exist or is taken.
  std::size_t connect(NetPort a, NetPort b, PortSetting setting = {});

  const std::vector<NetNode>& nodes() const { return nodes_; }
  const std::vector<NetLink>& links() const { return links_; }
  const NetNode& node(std::size_t index) const { return nodes_.at(index); }

  std::optional<std::size_t> find_node(std::string_view name) const;
  std::optional<std::size_t> link_at(NetPort port) const;
  std::optional<NetPort> peer(NetPort port) const;
  // The setting of the given end of a cabled port; throws when it is not cabled.
  const PortSetting& setting(NetPort port) const;
  void set_setting(NetPort port, PortSetting setting);

  // "leaf01[19]"
  std::string port_name(NetPort port) const;

  std::size_t count(NodeType type) const;

 private:
  void check_port(NetPort port) const;

  std::vector<NetNode> nodes_;
  std::vector<NetLink> links_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::vector<std::vector<std::optional<std::size_t>>> port_links_;  // [node][port] -> link
};

}  // namespace ibpm::sim
