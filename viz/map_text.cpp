// SPDX-License-Identifier: MIT

#include "viz/map_text.hpp"

#include <cmath>
#include <cstdio>

#include "base/number.hpp"
#include "topology/link_speed_check.hpp"

namespace ibpm::viz {

namespace {

using base::format_fixed;
using base::format_short;

std::string level_text(const levels::FabricLevels& levels, std::size_t node_index,
                       const Node& node) {
  if (node.type != NodeType::sw) return std::string(to_string(node.type));
  const int level = levels.level(node_index);
  if (level == levels::kNoLevel) return "switch, no level (no host below it)";
  return "switch, " + levels.name(level) + " (level " + std::to_string(level) + ")";
}

std::string direction_text(const Fabric& fabric, PortRef from, PortRef to,
                           const DirectionLoad& load, const NodeNameMap* names) {
  if (!load.average_util && !load.xmit_wait_pct) return {};
  std::string s = port_name(fabric, from, names) + " -> " + port_name(fabric, to, names) + ":";
  if (load.average_util) s += " average " + format_percent(*load.average_util);
  if (load.peak_util) s += ", peak " + format_percent(*load.peak_util);
  if (load.xmit_wait_pct) s += ", xmit wait " + format_short(*load.xmit_wait_pct) + " %";
  if (load.congestion == CongestionMark::root) s += "  congestion root: others wait behind it";
  if (load.congestion == CongestionMark::victim) s += "  waits behind a congestion root";
  return s;
}

}  // namespace

std::string format_bps(double bps) {
  static const char* const units[] = {"b/s", "kb/s", "Mb/s", "Gb/s", "Tb/s"};
  return base::format_scaled(bps, units);
}

std::string format_percent(double share) {
  const double pct = share * 100;
  return (pct != 0 && std::fabs(pct) < 10 ? format_fixed(pct, 1) : format_fixed(pct, 0)) + " %";
}

std::string short_name(const Node& n, const NodeNameMap* names) {
  std::string name = display_name(n, names);
  if (name.empty()) return format_guid(n.guid);
  if (n.type == NodeType::sw && name.starts_with("MF0;") && !(names && names->find(n.guid))) {
    const auto colon = name.find(':');
    if (colon != std::string::npos && colon > 4) return name.substr(4, colon - 4);
  }
  return name;
}

std::vector<std::string> node_tooltip(const Fabric& fabric, const levels::FabricLevels& levels,
                                      std::size_t node_index, const NodeAnnotation* annotation,
                                      const NodeNameMap* names) {
  const Node& node = fabric.nodes()[node_index];
  std::vector<std::string> lines;
  lines.push_back(display_name(node, names));
  lines.push_back(level_text(levels, node_index, node));
  std::string ids = "GUID " + format_guid(node.guid);
  const Port* lid_port = node.port(node.type == NodeType::sw ? 0 : 1);
  if (lid_port && lid_port->lid) ids += ", LID " + std::to_string(*lid_port->lid);
  lines.push_back(ids);
  if (names && names->find(node.guid) && !node.description.empty())
    lines.push_back("description: " + node.description);
  if (!annotation) return lines;
  std::string health = "health: " + std::string(to_string(annotation->health));
  if (!annotation->health_reason.empty()) health += " (" + annotation->health_reason + ")";
  lines.push_back(health);
  if (annotation->locality) {
    std::string l = "subtree locality l " + format_fixed(*annotation->locality, 2);
    if (annotation->locality_gen) l += ", l_gen " + format_fixed(*annotation->locality_gen, 2);
    if (annotation->locality_con) l += ", l_con " + format_fixed(*annotation->locality_con, 2);
    lines.push_back(l);
  }
  if (annotation->transit) lines.push_back("transit traffic: the locality formula does not hold");
  if (!annotation->locality_note.empty()) lines.push_back(annotation->locality_note);
  return lines;
}

std::vector<std::string> cables_tooltip(const Fabric& fabric, const std::vector<std::size_t>& links,
                                        const MapAnnotations& annotations,
                                        const CableSummary& summary, const NodeNameMap* names,
                                        std::size_t max_cables) {
  std::vector<std::string> lines;
  if (links.size() > 1) lines.push_back(std::to_string(links.size()) + " cables");
  for (std::size_t i = 0; i < links.size() && i < max_cables; ++i) {
    const Link& link = fabric.links()[links[i]];
    std::string line = port_name(fabric, link.a, names) + " - " + port_name(fabric, link.b, names);
    const topology::LinkRate rate = topology::active_rate(fabric, link);
    if (rate.width && rate.speed)
      line +=
          "  " + std::string(to_string(*rate.width)) + " " + std::string(to_string(*rate.speed));
    const LinkAnnotation* folded = links.size() > 1 ? annotations.link(links[i]) : nullptr;
    if (folded && folded->degraded) line += "  degraded: " + folded->degradation;
    if (folded && folded->errors_s > 0) line += "  errors " + format_short(folded->errors_s) + "/s";
    lines.push_back(line);
    if (links.size() != 1) continue;
    if (const LinkAnnotation* a = annotations.link(links[i])) {
      for (const std::string& d : {direction_text(fabric, link.a, link.b, a->a_to_b, names),
                                   direction_text(fabric, link.b, link.a, a->b_to_a, names)})
        if (!d.empty()) lines.push_back(d);
      if (a->degraded) lines.push_back("degraded: " + a->degradation);
      if (!a->ber.empty()) lines.push_back(a->ber);
      if (a->routed_a_to_b && a->routed_b_to_a)
        lines.push_back("routes " + std::to_string(*a->routed_a_to_b + *a->routed_b_to_a) +
                        " host pairs (" + std::to_string(*a->routed_a_to_b) + " one way, " +
                        std::to_string(*a->routed_b_to_a) + " the other)");
    }
  }
  if (links.size() > max_cables)
    lines.push_back("... and " + std::to_string(links.size() - max_cables) + " more");
  if (summary.capacity_bps) lines.push_back("capacity " + format_bps(*summary.capacity_bps));
  lines.push_back(summary.utilization ? "utilization " + format_percent(*summary.utilization) +
                                            (links.size() > 1 ? " (busiest cable)" : "")
                                      : std::string("utilization: no data"));
  if (summary.errors_s > 0) lines.push_back("errors " + format_short(summary.errors_s) + "/s");
  if (summary.degraded > 0 && links.size() > 1)
    lines.push_back(std::to_string(summary.degraded) + " degraded");
  return lines;
}

std::string cables_label(std::size_t count, const CableSummary& summary,
                         const std::string& degradation) {
  std::vector<std::string> parts;
  if (count > 1) parts.push_back("x" + std::to_string(count));
  if (summary.errors_s > 0) parts.push_back("errors " + format_short(summary.errors_s) + "/s");
  if (summary.degraded == 1 && count == 1 && !degradation.empty())
    parts.push_back(degradation);
  else if (summary.degraded > 0)
    parts.push_back(std::to_string(summary.degraded) + " degraded");
  std::string label;
  for (const std::string& p : parts) label += (label.empty() ? "" : ", ") + p;
  return label;
}

}  // namespace ibpm::viz
