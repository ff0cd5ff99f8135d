// SPDX-License-Identifier: MIT

#include "levels_report.hpp"

#include <algorithm>

#include "base/text.hpp"
#include "fabric/graph.hpp"
#include "fabric/node_name_map.hpp"
#include "levels/fabric_levels.hpp"

namespace ibpm::tools {

namespace {

constexpr std::size_t kNamesShown = 4;

void print_names(std::ostream& out, const Fabric& fabric, const std::vector<std::size_t>& nodes,
                 const NodeNameMap* names) {
  for (std::size_t i = 0; i < nodes.size() && i < kNamesShown; ++i)
    out << (i ? ", " : " (") << base::one_line(display_name(fabric.nodes()[nodes[i]], names));
  if (nodes.size() > kNamesShown) out << ", ...";
  if (!nodes.empty()) out << ")";
}

}  // namespace

void print_levels(std::ostream& out, const Fabric& fabric, const NodeNameMap* names) {
  levels::FabricLevels levels(fabric, make_graph(fabric));
  const auto& nodes = fabric.nodes();
  auto hosts =
      std::count_if(nodes.begin(), nodes.end(), [](const Node& n) { return levels::is_host(n); });
  auto aggregation = std::count_if(nodes.begin(), nodes.end(),
                                   [](const Node& n) { return levels::is_aggregation_node(n); });
  out << "Levels: " << levels.top() << " switch level" << (levels.top() == 1 ? "" : "s") << "\n";
  for (int level = levels.top(); level >= levels::kLeafLevel; --level) {
    auto at = levels.switches_at(level);
    out << "  " << level << " " << levels.name(level) << ": " << at.size() << " switches";
    print_names(out, fabric, at, names);
    out << "\n";
  }
  out << "  0 hosts: " << hosts << " CAs";
  if (aggregation) out << " (and " << aggregation << " aggregation nodes)";
  out << "\n";
  std::vector<std::size_t> unplaced;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (levels.level(i) == levels::kNoLevel) unplaced.push_back(i);
  if (!unplaced.empty()) {
    out << "  unplaced (no leaf reaches them): " << unplaced.size() << " switches";
    print_names(out, fabric, unplaced, names);
    out << "\n";
  }
  if (!levels.spines_with_hosts().empty()) {
    out << "  spines with hosts: " << levels.spines_with_hosts().size();
    print_names(out, fabric, levels.spines_with_hosts(), names);
    out << "\n";
  }
  auto directors = levels::chassis(fabric);
  if (!directors.empty()) {
    out << "  chassis: " << directors.size() << " (";
    for (std::size_t i = 0; i < directors.size(); ++i)
      out << (i ? ", " : "") << directors[i].switches.size() << " ASICs";
    out << ")\n";
  }
}

}  // namespace ibpm::tools
