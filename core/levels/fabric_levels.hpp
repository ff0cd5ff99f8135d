// SPDX-License-Identifier: MIT
// The levels of a fabric: hosts (CAs) at 0, leaf switches at 1, then spine, core and above by
// their hop distance from the leaves. Real fabrics are not textbook trees, so a leaf is not simply
// "a switch with a CA on it":
//   - every HDR/NDR switch carries a SHARP "Aggregation Node" CA: not a host, it makes no leaf;
//   - storage or service hosts hang off spines: a switch with hosts whose switch neighbours are
//     mostly such switches themselves is a spine with hosts, not a leaf;
//   - director chassis show their internal ASICs as switches: each ASIC gets its own level (line
//     cards below fabric cards), and chassis() groups them by system image GUID.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/graph.hpp"

namespace ibpm::levels {

constexpr int kHostLevel = 0;
constexpr int kLeafLevel = 1;
constexpr int kNoLevel = -1;  // a switch no leaf reaches (isolated, or a fabric without hosts)

// A SHARP aggregation node: a CA inside a switch that reduces data for collectives.
bool is_aggregation_node(const Node& node);
// A CA that is a host (compute, storage, service): a CA that is not an aggregation node.
bool is_host(const Node& node);

class FabricLevels {
 public:
  // Levels of fabric.nodes(), by index. `graph` is make_graph(fabric).
  FabricLevels(const Fabric& fabric, const FabricGraph& graph);

  int level(std::size_t node_index) const { return level_[node_index]; }
  const std::vector<int>& levels() const { return level_; }
  int top() const { return top_; }  // the highest switch level (0 when no switch has one)

  // Node indices of the switches at `level`, in fabric order.
  std::vector<std::size_t> switches_at(int level) const;
  // "hosts", "leaf", "spine", "core" for a three-level fabric; levels above 3 are "level N";
  // in a two-level fabric level 2 is "spine", in a one-level fabric level 1 is "leaf".
  std::string name(int level) const;

  // Switches that had hosts but were judged spines (storage or service hosts on a spine).
  const std::vector<std::size_t>& spines_with_hosts() const { return spines_with_hosts_; }

 private:
  std::vector<int> level_;
  std::vector<std::size_t> spines_with_hosts_;
  int top_ = 0;
};

// Switch ASICs of one chassis (same system image GUID, more than one switch): a director.
struct Chassis {
  Guid system_image_guid = 0;
  std::vector<std::size_t> switches;  // node indices, fabric order
};
std::vector<Chassis> chassis(const Fabric& fabric);

}  // namespace ibpm::levels
