// SPDX-License-Identifier: MIT

#include "viz/history_annotations.hpp"

#include <ctime>

#include "routes/cable_pairs.hpp"

namespace ibpm::viz {

namespace {

DirectionLoad load_of(const history::DirectionUsage& d) {
  if (!d.measured) return {};
  return {d.average_util, d.peak_util, d.xmit_wait_pct};
}

std::string utc(std::time_t t, const char* format) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[64];
  return std::strftime(buffer, sizeof buffer, format, &tm) ? buffer : "";
}

std::string duration(std::time_t seconds) {
  if (seconds % 86400 == 0) return std::to_string(seconds / 86400) + " d";
  if (seconds % 3600 == 0) return std::to_string(seconds / 3600) + " h";
  if (seconds % 60 == 0) return std::to_string(seconds / 60) + " min";
  return std::to_string(seconds) + " s";
}

}  // namespace

std::string describe_window(const history::Window& window) {
  return "counters from " + utc(window.start, "%Y-%m-%d %H:%M") + " to " +
         utc(window.end, "%Y-%m-%d %H:%M UTC") + " (" + duration(window.seconds()) + ")";
}

MapAnnotations annotations_from_history(const Fabric& fabric,
                                        const std::vector<history::LinkUsage>& usage,
                                        const std::vector<locality::SetTraffic>& traffic,
                                        const history::WindowCoverage& coverage) {
  MapAnnotations annotations;
  size_to(annotations, fabric);
  annotations.window =
      describe_window(coverage.window) + "; " + history::describe_coverage(coverage);
  for (const history::LinkUsage& u : usage) {
    if (u.link >= annotations.links.size()) continue;
    LinkAnnotation& a = annotations.links[u.link];
    a.utilization = u.utilization();
    a.a_to_b = load_of(u.a_to_b);
    a.b_to_a = load_of(u.b_to_a);
    if (u.a_to_b.measured || u.b_to_a.measured)
      a.octets_s = (u.a_to_b.measured ? u.a_to_b.average_octets_s : 0) +
                   (u.b_to_a.measured ? u.b_to_a.average_octets_s : 0);
    a.errors_s = u.errors_s;
  }
  for (const locality::SetTraffic& t : traffic) {
    if (!t.set || !t.set->subtree) continue;
    for (std::size_t root : t.set->roots) {
      if (root >= annotations.nodes.size()) continue;
      NodeAnnotation& n = annotations.nodes[root];
      n.locality = t.l;
      n.locality_gen = t.l_gen;
      n.locality_con = t.l_con;
      n.transit = t.transit;
      n.locality_note = t.note;
    }
  }
  return annotations;
}

void annotate_ber(const Fabric& fabric, MapAnnotations& annotations,
                  const std::map<PortRef, link_quality::RecordedBer>& recorded,
                  const NodeNameMap* names) {
  if (annotations.links.empty()) return;
  const auto& links = fabric.links();
  for (std::size_t i = 0; i < links.size() && i < annotations.links.size(); ++i) {
    const link_quality::RecordedBer* worst = nullptr;  // the end whose worst window is worse
    const link_quality::BerWindow* worst_window = nullptr;
    PortRef worst_end{};
    for (const PortRef& end : {links[i].a, links[i].b}) {
      const auto found = recorded.find(end);
      if (found == recorded.end()) continue;
      const link_quality::BerWindow* w = link_quality::worst_window(found->second);
      if (w && (!worst_window || w->ber.lower > worst_window->ber.lower)) {
        worst = &found->second;
        worst_window = w;
        worst_end = end;
      }
    }
    if (worst)
      annotations.links[i].ber =
          link_quality::summary(*worst) + " at " + port_name(fabric, worst_end, names);
  }
}

void annotate_routes(const Fabric& fabric, MapAnnotations& annotations,
                     const routes::RouteMap& map) {
  if (annotations.links.empty()) return;
  const std::map<PortRef, std::size_t> counts = routes::pair_counts(map);
  auto count = [&](PortRef from) {
    const auto found = counts.find(from);
    return found == counts.end() ? std::size_t{0} : found->second;
  };
  const auto& links = fabric.links();
  for (std::size_t i = 0; i < links.size() && i < annotations.links.size(); ++i) {
    annotations.links[i].routed_a_to_b = count(links[i].a);
    annotations.links[i].routed_b_to_a = count(links[i].b);
  }
}

}  // namespace ibpm::viz
