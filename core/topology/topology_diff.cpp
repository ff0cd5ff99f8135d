// SPDX-License-Identifier: MIT

#include "topology/topology_diff.hpp"

#include <algorithm>

#include "topology/link_speed_check.hpp"

namespace ibpm::topology {
namespace {

class DiffBuilder {
 public:
  DiffBuilder(const Fabric* baseline, const Fabric& current, const NodeNameMap* names)
      : baseline_(baseline), current_(current), names_(names) {}

  TopologyDiff build() {
    if (baseline_) {
      compare_nodes();
      compare_baseline_links();
      find_new_links();
    }
    find_degraded_links();
    return std::move(diff_);
  }

 private:
  // Names come from whichever fabric still has the node.
  std::string name(PortRef ref) const {
    if (current_.find(ref.node)) return port_name(current_, ref, names_);
    return port_name(*baseline_, ref, names_);
  }
  std::string node_name(const Node& node) const {
    return display_name(node, names_) + " (" + format_guid(node.guid) + ")";
  }
  std::string cable(PortRef a, PortRef b) const { return name(a) + " <-> " + name(b); }
  void add(ChangeKind kind, std::string text) { diff_.changes.push_back({kind, std::move(text)}); }

  // Where a node was (or is) cabled, for the report of a missing or new node.
  std::string cabled_to(const Fabric& fabric, const Node& node) const {
    std::string peers;
    node.for_each_port([&](const Port& port) {
      if (auto peer = fabric.remote({node.guid, port.number})) {
        if (!peers.empty()) peers += ", ";
        peers += std::to_string(port.number) + " -> " + port_name(fabric, *peer, names_);
      }
    });
    return peers.empty() ? "" : " [" + peers + "]";
  }

  void compare_nodes() {
    for (const Node& old : baseline_->nodes())
      if (!current_.find(old.guid))
        add(ChangeKind::node_missing, std::string(to_string(old.type)) + " " + node_name(old) +
                                          " missing, was cabled" + cabled_to(*baseline_, old));
    for (const Node& now : current_.nodes())
      if (!baseline_->find(now.guid))
        add(ChangeKind::node_new, std::string(to_string(now.type)) + " " + node_name(now) +
                                      " new, cabled" + cabled_to(current_, now));
  }

  void compare_baseline_links() {
    for (const Link& link : baseline_->links()) {
      // A missing node already accounts for its cables.
      if (!current_.find(link.a.node) || !current_.find(link.b.node)) continue;
      auto now_a = current_.remote(link.a);
      if (now_a && *now_a == link.b) continue;
      auto now_b = current_.remote(link.b);
      if (!now_a && !now_b) {
        add(ChangeKind::link_lost, "link lost: " + cable(link.a, link.b));
        continue;
      }
      std::string text = "link moved: " + cable(link.a, link.b) + " now";
      if (now_a) text += " " + cable(link.a, *now_a);
      if (now_a && now_b) text += ",";
      if (now_b) text += " " + cable(link.b, *now_b);
      add(ChangeKind::link_moved, text);
    }
  }

  void find_new_links() {
    for (const Link& link : current_.links()) {
      if (!baseline_->find(link.a.node) || !baseline_->find(link.b.node)) continue;  // new node
      auto was_a = baseline_->remote(link.a);
      auto was_b = baseline_->remote(link.b);
      if (was_a && *was_a == link.b) continue;
      // Reported as moved, unless the old peer is gone altogether (then it is just new).
      auto moved = [&](const std::optional<PortRef>& was) {
        return was && current_.find(was->node);
      };
      if (moved(was_a) || moved(was_b)) continue;
      add(ChangeKind::link_new, "link new: " + cable(link.a, link.b));
    }
  }

  void find_degraded_links() {
    for (const Link& link : current_.links()) {
      Degradation d = check_link_rate(current_, link, baseline_rate(baseline_, link));
      if (d)
        add(ChangeKind::link_degraded,
            "link degraded: " + cable(link.a, link.b) + " runs " + d.describe());
    }
  }

  const Fabric* baseline_;
  const Fabric& current_;
  const NodeNameMap* names_;
  TopologyDiff diff_;
};

}  // namespace

std::string_view to_string(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::node_missing:
      return "node missing";
    case ChangeKind::node_new:
      return "node new";
    case ChangeKind::link_lost:
      return "link lost";
    case ChangeKind::link_moved:
      return "link moved";
    case ChangeKind::link_new:
      return "link new";
    case ChangeKind::link_degraded:
      return "link degraded";
  }
  return "change";
}

std::size_t TopologyDiff::count(ChangeKind kind) const {
  return static_cast<std::size_t>(std::count_if(
      changes.begin(), changes.end(), [kind](const TopologyChange& c) { return c.kind == kind; }));
}

TopologyDiff compare_topology(const Fabric* baseline, const Fabric& current,
                              const NodeNameMap* names) {
  return DiffBuilder(baseline, current, names).build();
}

}  // namespace ibpm::topology
