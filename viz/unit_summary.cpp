// SPDX-License-Identifier: MIT

#include "viz/unit_summary.hpp"

#include <algorithm>

namespace ibpm::viz {

namespace {

std::string count_text(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string UnitSummary::marks_text() const {
  std::vector<std::string> parts;
  if (cables_with_errors > 0)
    parts.push_back(count_text(cables_with_errors, "cable with errors", "cables with errors"));
  if (degraded_cables > 0)
    parts.push_back(count_text(degraded_cables, "degraded cable", "degraded cables"));
  if (sick_switches > 0)
    parts.push_back(count_text(sick_switches, "switch not ok", "switches not ok"));
  std::string text;
  for (const std::string& p : parts) text += (text.empty() ? "" : ", ") + p;
  return text;
}

std::vector<UnitSummary> summarize_units(const Fabric& fabric, const levels::FabricLevels& levels,
                                         const FoldUnits& units,
                                         const MapAnnotations& annotations) {
  std::vector<UnitSummary> out(units.units.size());
  // Cables: each counted once for every unit it touches.
  for (std::size_t l = 0; l < fabric.links().size(); ++l) {
    const Link& link = fabric.links()[l];
    const std::size_t a = fabric.index_of(link.a.node);
    const std::size_t b = fabric.index_of(link.b.node);
    const LinkAnnotation* note = annotations.link(l);
    for (std::size_t end : {a, b}) {
      const std::size_t u = units.unit_of[end];
      if (u == kNoUnit || (end == b && units.unit_of[a] == u)) continue;
      UnitSummary& s = out[u];
      if (!note) continue;
      s.cables_with_errors += note->errors_s > 0;
      s.degraded_cables += note->degraded;
      if (note->utilization) s.hottest = std::max(s.hottest.value_or(0.0), *note->utilization);
      const bool host_cable = units.home_of[end] != end;  // a host's own cable
      if (host_cable && note->octets_s) {
        s.traffic_octets_s = s.traffic_octets_s.value_or(0.0) + *note->octets_s;
        ++s.measured_host_cables;
      }
    }
  }
  for (std::size_t u = 0; u < units.units.size(); ++u) {
    UnitSummary& s = out[u];
    int locality_level = levels::kNoLevel;
    for (std::size_t sw : units.units[u].switches) {
      const NodeAnnotation* note = annotations.node(sw);
      if (!note) continue;
      s.health = std::max(s.health, note->health);
      s.sick_switches += note->health >= Health::warning;
      // The locality of the subtree the unit's highest switches root (a pod's spines).
      if (note->locality && levels.level(sw) > locality_level) {
        locality_level = levels.level(sw);
        s.locality = note->locality;
        s.transit = note->transit;
      }
    }
  }
  // Hosts' own health (their cables) raises their unit's.
  for (std::size_t n = 0; n < units.unit_of.size(); ++n) {
    const std::size_t u = units.unit_of[n];
    if (u == kNoUnit || units.home_of[n] == n) continue;
    if (const NodeAnnotation* note = annotations.node(n))
      out[u].health = std::max(out[u].health, note->health);
  }
  return out;
}

}  // namespace ibpm::viz
