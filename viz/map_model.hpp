// SPDX-License-Identifier: MIT
// What a health map shows about the fabric besides its cabling: per link utilization, errors and
// degradation, per node health and traffic locality. Plain values, filled from the RRD history
// and the locality analysis (history_annotations.hpp) or by tests, so the drawing never reads
// counters itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm::viz {

// Maps of more edges than this get straight lines: spline routing costs most of dot's time (a
// pod's map of 324 cables: 0.5 s with splines, a tenth with lines). The layout leaves more room
// between levels for them.
inline constexpr std::size_t kSplineEdgeLimit = 300;

enum class Health { unknown, ok, warning, critical };  // ordered: worse is greater

std::string_view to_string(Health health);

// A direction's part in a congestion tree (ibpm-congestion): the full port at its tip, or a
// port that waits for credits behind one. Ordered: worse is greater.
enum class CongestionMark : std::uint8_t { none, victim, root };

struct DirectionLoad {
  std::optional<double> average_util;  // 0..1 of capacity
  std::optional<double> peak_util;
  std::optional<double> xmit_wait_pct;  // 0..100
  CongestionMark congestion = CongestionMark::none;
};

struct LinkAnnotation {
  std::optional<double> utilization;  // 0..1, the busier direction; nullopt: no data
  std::optional<double> octets_s;     // both directions together, average
  DirectionLoad a_to_b;               // Link::a transmits
  DirectionLoad b_to_a;
  double errors_s = 0;                       // error counters of both ends, per second
  bool degraded = false;                     // running below the width/speed both ends enable
  std::string degradation;                   // "1x HDR, expected 4x HDR"
  std::optional<std::size_t> routed_a_to_b;  // host pairs the forwarding tables route through
  std::optional<std::size_t> routed_b_to_a;  // it (STATE_DIR/routes.lft); nullopt: not known
  std::string ber;  // the worst BER window of its ends: "symbol_ber 2e-11 over
                    // 12 min at leaf01[2]"; "" when none saw errors
};

struct NodeAnnotation {
  Health health = Health::unknown;
  std::string health_reason;  // "2 links with errors", ...
  // Traffic locality of the subtree this switch roots (locality.hpp: l, l_gen, l_con), 0..1.
  std::optional<double> locality;
  std::optional<double> locality_gen;
  std::optional<double> locality_con;
  bool transit = false;  // the locality formula does not hold for this subtree
  std::string locality_note;
};

struct MapAnnotations {
  std::vector<LinkAnnotation> links;  // by index into Fabric::links(); empty: no link data
  std::vector<NodeAnnotation> nodes;  // by index into Fabric::nodes(); empty: no node data
  std::string window;                 // what the data covers, for the legend ("last 1 h ...")

  const LinkAnnotation* link(std::size_t index) const {
    return index < links.size() ? &links[index] : nullptr;
  }
  const NodeAnnotation* node(std::size_t index) const {
    return index < nodes.size() ? &nodes[index] : nullptr;
  }
};

// Sizes both tables to the fabric (existing entries stay).
void size_to(MapAnnotations& annotations, const Fabric& fabric);

// Marks the directions that leave through the ports given (by sending port).
void annotate_congestion(const Fabric& fabric, MapAnnotations& annotations,
                         const std::map<PortRef, CongestionMark>& marks);

// Raises each node's health to what its links say: errors -> critical, degraded -> warning,
// a measured link -> ok. A health already worse stays.
void derive_node_health(const Fabric& fabric, MapAnnotations& annotations);

}  // namespace ibpm::viz
