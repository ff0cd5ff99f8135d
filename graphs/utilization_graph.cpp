// SPDX-License-Identifier: MIT

#include "graphs/utilization_graph.hpp"

#include <stdexcept>
#include <vector>

#include "graphs/rrd_graph_call.hpp"

namespace ibpm::graphs {

namespace {

using namespace detail;

// DEF and CDEF lines for one direction as per cent of capacity; false when no side has a file.
bool add_direction(std::vector<std::string>& args, const std::string& name,
                   const std::string& sender, const std::string& receiver, double capacity) {
  std::string def;
  if (file_exists(sender))
    def = "DEF:" + name + "_w=" + def_path(sender) + ":xmit_data:AVERAGE";
  else if (file_exists(receiver))
    def = "DEF:" + name + "_w=" + def_path(receiver) + ":rcv_data:AVERAGE";
  else
    return false;
  args.push_back(def);
  // 4-octet words per second -> per cent of the capacity in octets per second.
  args.push_back("CDEF:" + name + "=" + name + "_w,4,*," + std::to_string(capacity) + ",/,100,*");
  return true;
}

}  // namespace

void draw_utilization(const history::HistoryReader& reader, const history::LinkUsage& usage,
                      const std::string& a_name, const std::string& b_name,
                      const ProfileGraph& graph) {
  const double capacity = usage.capacity_octets_s.value_or(0);
  if (capacity <= 0) throw std::runtime_error(graph.output + ": the link's capacity is unknown");
  const std::string a = reader.path(usage.a_to_b.from.node, usage.a_to_b.from.port);
  const std::string b = reader.path(usage.b_to_a.from.node, usage.b_to_a.from.port);
  std::vector<std::string> args = graph_head(graph, "% of capacity");
  args.insert(args.end(), {"--lower-limit", "0", "--upper-limit", "100"});
  if (add_direction(args, "ab", a, b, capacity))
    args.push_back("AREA:ab#4e9a0680:" + legend_text(a_name + " -> " + b_name));
  if (add_direction(args, "ba", b, a, capacity))
    args.push_back("LINE2:ba#204a87:" + legend_text(b_name + " -> " + a_name));
  run_graph(std::move(args), graph.output);
}

}  // namespace ibpm::graphs
