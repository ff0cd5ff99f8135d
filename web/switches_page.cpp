// SPDX-License-Identifier: MIT
// switches.html: every switch, its level, health and utilization, with its profile.
#include <algorithm>

#include "base/number.hpp"
#include "page.hpp"
#include "page_parts.hpp"
#include "pages.hpp"

namespace ibpm::web {

namespace {

struct SwitchLoad {
  std::size_t cabled = 0;
  std::optional<double> busiest;  // the highest average utilization of a cable it sends on
  double sent = 0;                // octets/s over all its ports
  double errors = 0;              // per second, its own ports
};

SwitchLoad load_of(const SiteData& data, std::size_t node_index) {
  SwitchLoad load;
  const Node& node = data.fabric().nodes()[node_index];
  node.for_each_port([&](const Port& port) {
    if (!port.link) return;
    ++load.cabled;
    const PortRef ref{node.guid, port.number};
    if (const history::LinkUsage* usage = data.link_usage(*port.link)) {
      const history::DirectionUsage& out =
          usage->a_to_b.from == ref ? usage->a_to_b : usage->b_to_a;
      if (out.measured) {
        load.sent += out.average_octets_s;
        if (out.average_util) load.busiest = std::max(load.busiest.value_or(0), *out.average_util);
      }
    }
    if (const PortState* state = data.port(ref)) load.errors += history::error_rate(state->history);
  });
  return load;
}

}  // namespace

std::string switches_page(const SiteContext& site) {
  const SiteData& data = site.data;
  const Fabric& fabric = data.fabric();
  Table table{"switches",
              {"Switch", "Level", "Cabled ports", "Health", "Sent", "Busiest port", "Errors"},
              {},
              {}};
  std::string graphs;
  std::vector<std::size_t> switches;
  for (std::size_t i = 0; i < fabric.nodes().size(); ++i)
    if (fabric.nodes()[i].type == NodeType::sw) switches.push_back(i);
  // Top level first, as on the map.
  std::stable_sort(switches.begin(), switches.end(), [&](std::size_t a, std::size_t b) {
    return data.levels->level(a) > data.levels->level(b);
  });
  for (std::size_t i : switches) {
    const SwitchLoad load = load_of(data, i);
    const viz::NodeAnnotation* note = data.annotations.node(i);
    const viz::Health health = note ? note->health : viz::Health::unknown;
    Cell health_cell = state_cell(std::string(viz::to_string(health)));
    if (note && !note->health_reason.empty()) health_cell.html += " " + escape(note->health_reason);
    table.rows.push_back(
        {{node_link(data, i, 0), {}, false, {}},
         text_cell(data.levels->name(data.levels->level(i))),
         number_cell(static_cast<double>(load.cabled), std::to_string(load.cabled)),
         health_cell,
         rate_cell(load.sent),
         percent_cell(load.busiest),
         per_second_cell(load.errors)});
    if (auto graph = site.graphs.switches.find(i); graph != site.graphs.switches.end())
      graphs += figure(graph->second, "utilization of " + data.name(i), node_link(data, i, 0), 0);
  }
  std::string body = "<h1>Switches</h1>\n" + render(table) +
                     "<h2>Utilization profiles</h2>\n<p class=\"note\">What each switch sent "
                     "towards the core (up) and towards the hosts (down), as a share of the "
                     "capacity of those cables.</p>\n<div class=\"graphs\">\n" +
                     graphs + "</div>\n";
  return page({"Switches", 0, site.generated, {}}, body);
}

}  // namespace ibpm::web
