// SPDX-License-Identifier: MIT

#include "graphs/switch_graph.hpp"

#include <stdexcept>

#include "graphs/rrd_graph_call.hpp"

namespace ibpm::graphs {

using namespace detail;

void draw_switch_traffic(const history::HistoryReader& reader, const std::vector<PortGroup>& groups,
                         const ProfileGraph& graph) {
  static const char* const kColours[] = {"#204a87", "#4e9a06", "#c4a000", "#75507b"};
  std::vector<std::string> args = graph_head(graph, "% of capacity");
  args.insert(args.end(), {"--lower-limit", "0", "--upper-limit", "100"});
  std::size_t drawn = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const PortGroup& group = groups[g];
    if (group.capacity_octets_s <= 0) continue;
    const std::string name = "g" + std::to_string(g);
    std::string sum;  // RPN: ADDNAN counts a port without a value as 0, so one gap is no hole
    std::size_t defs = 0;
    for (const PortRef& port : group.ports) {
      const std::string file = reader.path(port.node, port.port);
      if (!file_exists(file)) continue;
      const std::string def = name + "p" + std::to_string(defs);
      args.push_back("DEF:" + def + "=" + def_path(file) + ":xmit_data:AVERAGE");
      sum += defs == 0 ? def : "," + def + ",ADDNAN";
      ++defs;
    }
    if (defs == 0) continue;
    // 4-octet words per second -> per cent of the group's capacity in octets per second.
    args.push_back("CDEF:" + name + "=" + sum + ",4,*," + std::to_string(group.capacity_octets_s) +
                   ",/,100,*");
    args.push_back(std::string(drawn == 0 ? "AREA:" : "LINE2:") + name +
                   kColours[drawn % std::size(kColours)] + (drawn == 0 ? "80:" : ":") +
                   legend_text(group.label));
    ++drawn;
  }
  if (drawn == 0) throw std::runtime_error(graph.output + ": no port of the switch has a history");
  run_graph(std::move(args), graph.output);
}

}  // namespace ibpm::graphs
