// SPDX-License-Identifier: MIT

#include "viz/map_model.hpp"

#include <algorithm>

namespace ibpm::viz {

std::string_view to_string(Health health) {
  switch (health) {
    case Health::ok:
      return "ok";
    case Health::warning:
      return "warning";
    case Health::critical:
      return "critical";
    case Health::unknown:
      break;
  }
  return "unknown";
}

void size_to(MapAnnotations& annotations, const Fabric& fabric) {
  annotations.links.resize(std::max(annotations.links.size(), fabric.links().size()));
  annotations.nodes.resize(std::max(annotations.nodes.size(), fabric.nodes().size()));
}

void annotate_congestion(const Fabric& fabric, MapAnnotations& annotations,
                         const std::map<PortRef, CongestionMark>& marks) {
  if (marks.empty()) return;
  size_to(annotations, fabric);
  for (std::size_t i = 0; i < fabric.links().size(); ++i) {
    const Link& link = fabric.links()[i];
    if (const auto a = marks.find(link.a); a != marks.end())
      annotations.links[i].a_to_b.congestion = a->second;
    if (const auto b = marks.find(link.b); b != marks.end())
      annotations.links[i].b_to_a.congestion = b->second;
  }
}

namespace {

struct LinkCounts {
  int with_errors = 0;
  int degraded = 0;
  int measured = 0;
};

std::string plural(int n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

void derive_node_health(const Fabric& fabric, MapAnnotations& annotations) {
  size_to(annotations, fabric);
  std::vector<LinkCounts> counts(fabric.nodes().size());
  for (std::size_t i = 0; i < fabric.links().size(); ++i) {
    const LinkAnnotation& a = annotations.links[i];
    const Link& link = fabric.links()[i];
    for (Guid end : {link.a.node, link.b.node}) {
      LinkCounts& c = counts[fabric.index_of(end)];
      c.with_errors += a.errors_s > 0;
      c.degraded += a.degraded;
      c.measured += a.utilization.has_value() || a.errors_s > 0;
      if (link.a.node == link.b.node) break;  // a loop cable counts once
    }
  }
  for (std::size_t n = 0; n < counts.size(); ++n) {
    const LinkCounts& c = counts[n];
    NodeAnnotation& node = annotations.nodes[n];
    Health health = Health::unknown;
    std::string reason;
    if (c.with_errors > 0) {
      health = Health::critical;
      reason = plural(c.with_errors, "link") + " with errors";
    }
    if (c.degraded > 0) {
      if (health < Health::warning) health = Health::warning;
      reason += (reason.empty() ? "" : ", ") + plural(c.degraded, "degraded link");
    }
    if (health == Health::unknown && c.measured > 0) health = Health::ok;
    if (health > node.health) {
      node.health = health;
      node.health_reason = reason;
    } else if (health == node.health && node.health_reason.empty()) {
      node.health_reason = reason;
    }
  }
}

}  // namespace ibpm::viz
