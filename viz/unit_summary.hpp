// SPDX-License-Identifier: MIT
// What a folded node says about everything it holds: the worst health, how many cables have
// errors or run degraded and how many switches are sick (so a fault deep inside stays visible),
// the hottest cable, the hosts' traffic and the subtree's locality.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "viz/fold_units.hpp"
#include "viz/map_model.hpp"

namespace ibpm::viz {

struct UnitSummary {
  Health health = Health::unknown;
  std::size_t cables_with_errors = 0;  // cables with an end inside the unit
  std::size_t degraded_cables = 0;
  std::size_t sick_switches = 0;           // switches whose own health is warning or worse
  std::optional<double> hottest;           // the busiest cable's utilization, 0..1
  std::optional<double> traffic_octets_s;  // the hosts' cables, sent + received
  std::size_t measured_host_cables = 0;
  std::optional<double> locality;  // of the subtree its highest switches root
  bool transit = false;

  std::size_t marks() const { return cables_with_errors + degraded_cables + sick_switches; }
  // "2 cables with errors, 1 degraded, 1 switch sick"; empty when nothing is wrong.
  std::string marks_text() const;
};

// Summaries of every unit, by unit index.
std::vector<UnitSummary> summarize_units(const Fabric& fabric, const levels::FabricLevels& levels,
                                         const FoldUnits& units, const MapAnnotations& annotations);

}  // namespace ibpm::viz
