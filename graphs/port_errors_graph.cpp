// SPDX-License-Identifier: MIT

#include "graphs/port_errors_graph.hpp"

#include <stdexcept>

#include "graphs/rrd_graph_call.hpp"

namespace ibpm::graphs {

using namespace detail;

void draw_port_errors(const history::HistoryReader& reader, PortRef port,
                      const std::vector<counters::Counter>& counters, const ProfileGraph& graph) {
  static const char* const kColours[] = {"#cc0000", "#f57900", "#75507b", "#204a87",
                                         "#4e9a06", "#c4a000", "#555753"};
  const std::string file = reader.path(port.node, port.port);
  if (!file_exists(file)) throw std::runtime_error(graph.output + ": the port has no history");
  std::vector<std::string> args = graph_head(graph, "per second");
  args.insert(args.end(), {"--lower-limit", "0"});
  for (std::size_t i = 0; i < counters.size(); ++i) {
    const counters::CounterSpec& counter = spec(counters[i]);
    const std::string name = "c" + std::to_string(i);
    args.push_back("DEF:" + name + "=" + def_path(file) + ":" + std::string(counter.key) +
                   ":AVERAGE");
    args.push_back("LINE2:" + name + kColours[i % std::size(kColours)] + ":" +
                   legend_text(std::string(counter.name)));
  }
  run_graph(std::move(args), graph.output);
}

}  // namespace ibpm::graphs
