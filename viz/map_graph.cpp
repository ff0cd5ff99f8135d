// SPDX-License-Identifier: MIT

#include "viz/map_graph.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "base/number.hpp"
#include "viz/color_scale.hpp"
#include "viz/map_text.hpp"
#include "viz/unit_summary.hpp"

namespace ibpm::viz {

std::optional<FoldMode> parse_fold_mode(std::string_view text) {
  if (text == "auto") return FoldMode::automatic;
  if (text == "hosts") return FoldMode::hosts;
  if (text == "pods") return FoldMode::pods;
  if (text == "none") return FoldMode::none;
  return std::nullopt;
}

std::string_view to_string(FoldMode mode) {
  switch (mode) {
    case FoldMode::automatic:
      return "auto";
    case FoldMode::hosts:
      return "hosts";
    case FoldMode::pods:
      return "pods";
    case FoldMode::none:
      break;
  }
  return "none";
}

std::string unit_map_name(const FoldUnit& unit, const std::string& extension) {
  return unit.id + extension;  // ids are made of a kind and a GUID: safe as file names
}

std::string leaf_map_name(Guid leaf, const std::string& extension) {
  return "leaf-" + format_guid(leaf) + extension;
}

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
constexpr std::size_t kGroupNamesShown = 8;
// More edges than this many per unit on an overview: through a hub (add_hub_if_dense).
constexpr std::size_t kHubEdgesPerUnit = 3;

class MapBuilder {
 public:
  MapBuilder(const Fabric& fabric, const levels::FabricLevels& levels,
             const MapAnnotations& annotations, const MapOptions& options)
      : fabric_(fabric),
        levels_(levels),
        annotations_(annotations),
        options_(options),
        drawn_(fabric.nodes().size(), kNone) {}

  MapGraph build() {
    map_.window = annotations_.window;
    if (options_.view) {
      units_ = options_.view->units;
      map_.folded = true;
      place_view();
      add_edges();
      name_ranks();
      map_.title = options_.view->title.empty() ? title() : options_.view->title + "; " + title();
      map_.up_url = options_.view->up_url;
      return std::move(map_);
    }
    own_units_ = fold_units(fabric_, levels_, options_.names);
    units_ = &own_units_;
    map_.folded = fold_hosts();
    add_chassis();
    add_switches();
    add_hosts();
    add_edges();
    finish_host_groups();
    name_ranks();
    map_.title = title();
    return std::move(map_);
  }

 private:
  bool fold_hosts() const {
    switch (options_.fold) {
      case FoldMode::hosts:
      case FoldMode::pods:
        return true;
      case FoldMode::none:
        return false;
      case FoldMode::automatic:
        break;
    }
    return fabric_.nodes().size() > options_.fold_above ||
           hosts_too_wide_to_draw(fabric_, levels_, options_.names);
  }

  std::string node_url(Guid guid, const std::string& anchor = {}) const {
    if (!options_.urls) return {};
    return options_.url_prefix + "nodes/" + format_guid(guid) + ".html" + anchor;
  }

  void add_chassis() {
    for (const levels::Chassis& c : levels::chassis(fabric_)) {
      const std::size_t index = map_.chassis.size();
      std::string label = "chassis " + format_guid(c.system_image_guid);
      // Director ASICs are usually described "NAME/L05/U1": show NAME.
      const std::string first = display_name(fabric_.nodes()[c.switches.front()], options_.names);
      if (const auto slash = first.find('/'); slash != std::string::npos && slash > 0)
        label = first.substr(0, slash) + " (" + label + ")";
      map_.chassis.push_back(label);
      for (std::size_t s : c.switches) chassis_of_[s] = index;
    }
  }

  std::size_t add_node(MapNode node, std::size_t fabric_index) {
    map_.nodes.push_back(std::move(node));
    if (fabric_index != kNone) drawn_[fabric_index] = map_.nodes.size() - 1;
    return map_.nodes.size() - 1;
  }

  MapNode device_node(std::size_t i, MapNodeKind kind, int rank) const {
    const Node& n = fabric_.nodes()[i];
    const NodeAnnotation* a = annotations_.node(i);
    MapNode node;
    node.id = "n" + format_guid(n.guid);
    node.kind = kind;
    node.rank = rank;
    node.order = units_->place[i];
    node.lines.push_back(short_name(n, options_.names));
    node.tooltip = node_tooltip(fabric_, levels_, i, a, options_.names);
    node.url = node_url(n.guid);
    node.fill = kind == MapNodeKind::switch_node ? "#ffffff" : "#f0f0f0";
    if (a) {
      node.health = a->health;
      if (a->locality) {
        node.fill = locality_color(a->locality);
        node.lines.push_back("l " + base::format_fixed(*a->locality, 2) +
                             (a->transit ? " (transit)" : ""));
      }
    }
    return node;
  }

  void add_switches() {
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i) {
      if (fabric_.nodes()[i].type != NodeType::sw) continue;
      const int level = levels_.level(i);
      MapNode node = device_node(i, MapNodeKind::switch_node,
                                 level == levels::kNoLevel ? levels::kLeafLevel : level);
      if (auto c = chassis_of_.find(i); c != chassis_of_.end()) node.chassis = c->second;
      add_node(std::move(node), i);
    }
  }

  void add_hosts() {
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i) {
      const Node& n = fabric_.nodes()[i];
      if (n.type == NodeType::sw) continue;
      if (levels::is_aggregation_node(n)) {
        ++map_.hidden_aggregation_nodes;
        continue;
      }
      const MapNodeKind kind = levels::is_host(n) ? MapNodeKind::host : MapNodeKind::other;
      const std::size_t home =
          map_.folded && kind == MapNodeKind::host ? home_switch(fabric_, i) : kNone;
      if (home == kNone) {
        add_node(device_node(i, kind, levels::kHostLevel), i);
        continue;
      }
      auto [group, added] = groups_.try_emplace(home, map_.nodes.size());
      if (added) {
        MapNode node;
        node.id = "h" + format_guid(fabric_.nodes()[home].guid);
        node.kind = MapNodeKind::host_group;
        node.rank = levels::kHostLevel;
        node.order = units_->place[home];
        node.hosts = 0;
        node.fill = "#f0f0f0";
        node.url = node_url(fabric_.nodes()[home].guid, "#hosts");
        add_node(std::move(node), kNone);
      }
      MapNode& g = map_.nodes[group->second];
      ++g.hosts;
      if (const NodeAnnotation* a = annotations_.node(i)) g.health = std::max(g.health, a->health);
      group_members_[group->second].push_back(i);
      drawn_[i] = group->second;
    }
  }

  void add_edges() {
    std::unordered_map<std::uint64_t, std::size_t> by_pair;
    const std::vector<Link>& links = fabric_.links();
    for (std::size_t l = 0; l < links.size(); ++l) {
      const std::size_t a = drawn_[fabric_.index_of(links[l].a.node)];
      const std::size_t b = drawn_[fabric_.index_of(links[l].b.node)];
      if (a == kNone || b == kNone) continue;  // an aggregation node's cable
      const bool same_group =
          a == b && (options_.view || map_.nodes[a].kind == MapNodeKind::host_group);
      if (same_group) continue;  // host to host inside one folded node
      if (hub_ != kNone && top_unit(a) != top_unit(b)) {
        // Through the hub: the lower unit's cables to the top level, the top unit's cables down.
        add_to_edge(a, hub_, l, by_pair);
        add_to_edge(b, hub_, l, by_pair);
        continue;
      }
      add_to_edge(a, b, l, by_pair);
    }
    for (MapEdge& e : map_.edges) finish_edge(e);
  }

  bool top_unit(std::size_t map_node) const {
    return map_.nodes[map_node].kind == MapNodeKind::unit && map_.nodes[map_node].rank > hub_rank_;
  }

  void add_to_edge(std::size_t a, std::size_t b, std::size_t link,
                   std::unordered_map<std::uint64_t, std::size_t>& by_pair) {
    if (map_.nodes[a].rank < map_.nodes[b].rank ||
        (map_.nodes[a].rank == map_.nodes[b].rank && b < a))
      std::swap(a, b);
    std::size_t edge = kNone;
    if (map_.folded) {
      const std::uint64_t key = static_cast<std::uint64_t>(a) << 32 | b;
      auto [it, added] = by_pair.try_emplace(key, map_.edges.size());
      if (!added) edge = it->second;
    }
    if (edge == kNone) {
      edge = map_.edges.size();
      MapEdge e;
      e.upper = a;
      e.lower = b;
      map_.edges.push_back(std::move(e));
    }
    map_.edges[edge].links.push_back(link);
  }

  // An overview whose units are wired all to all (every pod to every core group) draws one edge
  // from each unit to a hub instead: each edge then holds all the cables of one unit to or from
  // the top level (their hottest, faults and count), and the picture stays a tree.
  void add_hub_if_dense(std::size_t units_drawn) {
    int top = levels::kNoLevel;
    std::set<int> ranks;
    for (const MapNode& n : map_.nodes) {
      top = std::max(top, n.rank);
      ranks.insert(n.rank);
    }
    if (ranks.size() < 2) return;
    std::set<std::pair<std::size_t, std::size_t>> pairs;
    for (const Link& link : fabric_.links()) {
      const std::size_t a = drawn_[fabric_.index_of(link.a.node)];
      const std::size_t b = drawn_[fabric_.index_of(link.b.node)];
      if (a != kNone && b != kNone && a != b) pairs.insert(std::minmax(a, b));
    }
    if (pairs.size() <= kHubEdgesPerUnit * units_drawn) return;
    for (MapNode& n : map_.nodes)
      if (n.rank == top) ++n.rank;  // the top level one row up, the hub in between
    hub_rank_ = top;
    MapNode hub;
    hub.id = "hub";
    hub.kind = MapNodeKind::hub;
    hub.rank = top;
    hub.fill = "#808080";
    hub.tooltip = {"every unit's cables to the " + levels_.name(top) + " level meet here",
                   "an edge below: all the cables of one unit up; above: of one top unit down"};
    hub_ = add_node(std::move(hub), kNone);
  }

  void finish_edge(MapEdge& e) const {
    CableSummary summary;
    std::string degradation;
    double capacity = 0;
    bool any_capacity = false;
    PortRef url_end{~Guid{0}, 0xff};
    for (std::size_t l : e.links) {
      const Link& link = fabric_.links()[l];
      url_end = std::min({url_end, link.a, link.b});
      if (auto bps = link_capacity(link)) {
        capacity += *bps;
        any_capacity = true;
      }
      const LinkAnnotation* a = annotations_.link(l);
      if (!a) continue;
      if (a->utilization)
        summary.utilization = std::max(summary.utilization.value_or(0.0), *a->utilization);
      summary.errors_s += a->errors_s;
      e.congestion = std::max({e.congestion, a->a_to_b.congestion, a->b_to_a.congestion});
      if (a->degraded) {
        ++summary.degraded;
        degradation = a->degradation;
      }
    }
    if (any_capacity) summary.capacity_bps = capacity;
    e.utilization = summary.utilization;
    e.capacity_bps = summary.capacity_bps;
    e.errors_s = summary.errors_s;
    e.degraded = summary.degraded;
    // A folded hosts node says how many hosts it stands for: no "x18" on its edge.
    const bool to_hosts = map_.nodes[e.lower].kind == MapNodeKind::host_group;
    e.label = cables_label(to_hosts ? 1 : e.links.size(), summary, degradation);
    e.tooltip = cables_tooltip(fabric_, e.links, annotations_, summary, options_.names);
    if (options_.urls)
      e.url = options_.url_prefix + "links/" + format_guid(url_end.node) + "-" +
              std::to_string(url_end.port) + ".html";
    // Cables into a unit: its map, where each is drawn.
    if (map_.nodes[e.lower].kind == MapNodeKind::unit)
      e.url = map_.nodes[e.lower].url;
    else if (map_.nodes[e.upper].kind == MapNodeKind::unit)
      e.url = map_.nodes[e.upper].url;
  }

  // A folded view: what is drawn as itself, hosts with their switch, the rest as units.
  void place_view() {
    const FoldView& view = *options_.view;
    const FoldUnits& units = *view.units;
    const auto& nodes = fabric_.nodes();
    bool overview = true;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!view.itself[i]) continue;
      overview = false;
      const bool is_switch = nodes[i].type == NodeType::sw;
      const int level = levels_.level(i);
      const MapNodeKind kind = is_switch                   ? MapNodeKind::switch_node
                               : levels::is_host(nodes[i]) ? MapNodeKind::host
                                                           : MapNodeKind::other;
      add_node(device_node(i, kind,
                           is_switch ? (level == levels::kNoLevel ? levels::kLeafLevel : level)
                                     : levels::kHostLevel),
               i);
    }
    std::map<std::size_t, std::size_t> hosts_on;  // switch drawn as itself -> hosts folded in
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::size_t home = units.home_of[i];
      if (view.itself[i] || home == kNoUnit || home == i || !view.itself[home]) continue;
      drawn_[i] = drawn_[home];
      ++hosts_on[home];
    }
    for (const auto& [sw, hosts] : hosts_on) {
      MapNode& node = map_.nodes[drawn_[sw]];
      node.lines.push_back(std::to_string(hosts) + (hosts == 1 ? " host" : " hosts"));
      node.tooltip.push_back(std::to_string(hosts) + " hosts: their map is one click down");
      if (options_.urls) node.url = view.maps_url + leaf_map_name(nodes[sw].guid, view.extension);
    }
    std::vector<bool> wanted(units.units.size(), overview);
    if (!overview)
      for (const Link& link : fabric_.links()) {
        const std::size_t a = fabric_.index_of(link.a.node);
        const std::size_t b = fabric_.index_of(link.b.node);
        if (drawn_[a] != kNone && drawn_[b] == kNone && units.unit_of[b] != kNoUnit)
          wanted[units.unit_of[b]] = true;
        if (drawn_[b] != kNone && drawn_[a] == kNone && units.unit_of[a] != kNoUnit)
          wanted[units.unit_of[a]] = true;
      }
    const std::vector<UnitSummary> summaries =
        summarize_units(fabric_, levels_, units, annotations_);
    std::vector<std::size_t> unit_node(units.units.size(), kNone);
    for (std::size_t u = 0; u < units.units.size(); ++u)
      if (wanted[u]) unit_node[u] = add_node(unit_map_node(units.units[u], summaries[u]), kNone);
    for (std::size_t i = 0; i < nodes.size(); ++i)
      if (drawn_[i] == kNone && units.unit_of[i] != kNoUnit)
        drawn_[i] = unit_node[units.unit_of[i]];
    if (overview) add_hub_if_dense(units.units.size());
  }

  MapNode unit_map_node(const FoldUnit& unit, const UnitSummary& s) const {
    const FoldView& view = *options_.view;
    MapNode node;
    node.id = "u-" + unit.id;
    node.kind = MapNodeKind::unit;
    node.rank = unit.rank == levels::kNoLevel ? levels::kLeafLevel : unit.rank;
    node.order = units_->place[unit.switches.front()];
    for (std::size_t s : unit.switches) node.order = std::min(node.order, units_->place[s]);
    node.health = s.health;
    node.marks = s.marks();
    node.fill = s.locality ? locality_color(s.locality) : "#ffffff";
    node.hosts = unit.hosts;
    node.lines.push_back(unit.label);
    std::string size = unit.switches.size() == 1
                           ? std::string()
                           : std::to_string(unit.switches.size()) + " switches";
    if (unit.hosts > 0)
      size += (size.empty() ? "" : ", ") + std::to_string(unit.hosts) +
              (unit.hosts == 1 ? " host" : " hosts");
    if (!size.empty()) node.lines.push_back(size);
    std::string load;
    if (s.hottest) load = "hottest " + format_percent(*s.hottest);
    if (s.traffic_octets_s)
      load += (load.empty() ? "" : ", ") + base::format_rate(*s.traffic_octets_s);
    if (s.locality)
      load += (load.empty() ? "" : ", ") + std::string("l ") + base::format_fixed(*s.locality, 2) +
              (s.transit ? " (transit)" : "");
    if (!load.empty()) node.lines.push_back(load);
    if (s.marks() > 0) node.lines.push_back(s.marks_text());
    node.tooltip = {unit.name,
                    std::string(to_string(unit.kind)) + ": " + (size.empty() ? "1 switch" : size)};
    node.tooltip.push_back("health: " + std::string(to_string(s.health)) + " (worst inside)");
    if (s.marks() > 0) node.tooltip.push_back(s.marks_text());
    node.tooltip.push_back(s.hottest ? "hottest cable " + format_percent(*s.hottest)
                                     : std::string("utilization: no data"));
    if (s.traffic_octets_s)
      node.tooltip.push_back("hosts' traffic " + base::format_rate(*s.traffic_octets_s) +
                             " (sent + received, " + std::to_string(s.measured_host_cables) +
                             " host cables measured)");
    if (s.locality)
      node.tooltip.push_back("subtree locality l " + base::format_fixed(*s.locality, 2));
    node.tooltip.push_back("click: the map of what it holds");
    if (options_.urls) node.url = view.maps_url + unit_map_name(unit, view.extension);
    return node;
  }

  std::optional<double> link_capacity(const Link& link) const {
    const Port* a = fabric_.find_port(link.a);
    const Port* b = fabric_.find_port(link.b);
    std::optional<LinkWidth> width;
    std::optional<LinkSpeed> speed;
    for (const Port* p : {a, b}) {
      if (!p) continue;
      if (p->width) width = width ? std::min(*width, *p->width) : *p->width;
      if (p->speed) speed = speed ? std::min(*speed, *p->speed) : *p->speed;
    }
    if (!width || !speed) return std::nullopt;
    return static_cast<double>(link_capacity_bps(*width, *speed));
  }

  void finish_host_groups() {
    for (const auto& [home, index] : groups_) {
      MapNode& g = map_.nodes[index];
      const std::vector<std::size_t>& members = group_members_.at(index);
      const std::string switch_name = display_name(fabric_.nodes()[home], options_.names);
      g.lines = {std::to_string(g.hosts) + (g.hosts == 1 ? " host" : " hosts")};
      double rate = 0;
      std::size_t measured = 0;
      for (std::size_t host : members)
        for (const Port& p : fabric_.nodes()[host].ports)
          if (p.present && p.link)
            if (const LinkAnnotation* a = annotations_.link(*p.link); a && a->octets_s) {
              rate += *a->octets_s;
              ++measured;
            }
      g.tooltip = {std::to_string(g.hosts) + " hosts on " + switch_name};
      if (measured > 0) {
        g.lines.push_back(base::format_rate(rate));
        g.tooltip.push_back("traffic " + base::format_rate(rate) + " (sent + received, " +
                            std::to_string(measured) + " host cables measured)");
      }
      g.tooltip.push_back("health: " + std::string(to_string(g.health)) + " (worst host)");
      for (std::size_t k = 0; k < members.size() && k < kGroupNamesShown; ++k)
        g.tooltip.push_back(display_name(fabric_.nodes()[members[k]], options_.names));
      if (members.size() > kGroupNamesShown)
        g.tooltip.push_back("... and " + std::to_string(members.size() - kGroupNamesShown) +
                            " more");
    }
  }

  void name_ranks() {
    for (const MapNode& n : map_.nodes)
      if (!map_.ranks.contains(n.rank)) map_.ranks[n.rank] = levels_.name(n.rank);
  }

  std::string title() const {
    const std::size_t switches = fabric_.count(NodeType::sw);
    std::size_t hosts = 0;
    for (const Node& n : fabric_.nodes()) hosts += levels::is_host(n);
    std::string t = std::to_string(switches) + " switches, " + std::to_string(hosts) + " hosts, " +
                    std::to_string(fabric_.links().size()) + " cables";
    if (map_.folded) t += "; hosts folded per switch, parallel cables per pair";
    return t;
  }

  const Fabric& fabric_;
  const levels::FabricLevels& levels_;
  const MapAnnotations& annotations_;
  const MapOptions& options_;
  const FoldUnits* units_ = nullptr;  // the view's, or own_units_: the nodes' order
  FoldUnits own_units_;
  MapGraph map_;
  std::size_t hub_ = kNone;  // the hub's map node (add_hub_if_dense)
  int hub_rank_ = 0;
  std::vector<std::size_t> drawn_;                           // fabric node -> map node
  std::unordered_map<std::size_t, std::size_t> chassis_of_;  // switch -> chassis index
  std::map<std::size_t, std::size_t> groups_;                // home switch -> host group map node
  std::unordered_map<std::size_t, std::vector<std::size_t>> group_members_;  // by group map node
};

// What Graphviz draws (graphviz_render.cpp): labels in 10 pt bold Helvetica, about 6.5 pt a
// character, with 0.05 in margins; hosts as ellipses (the label's box times sqrt 2); 0.12 in
// between nodes; 1 in between levels (2.5 in on maps of more than 300 edges) of nodes 0.3 in tall;
// the legend about 240 pt tall on the top level; 0.3 in of padding around.
constexpr double kCharPt = 6.5;
constexpr double kMarginPt = 0.05 * 72 * 2;
constexpr double kNodeSepPt = 0.12 * 72;
constexpr double kNodeHeightPt = 0.3 * 72;
constexpr double kLegendHeightPt = 240;
constexpr double kPadPt = 0.3 * 72;

}  // namespace

bool hosts_too_wide_to_draw(const Fabric& fabric, const levels::FabricLevels& levels,
                            const NodeNameMap* names) {
  std::set<int> ranks;
  double row = 0;
  std::size_t hosts = 0;
  for (std::size_t i = 0; i < fabric.nodes().size(); ++i) {
    const Node& n = fabric.nodes()[i];
    if (n.type == NodeType::sw) {
      const int level = levels.level(i);
      ranks.insert(level == levels::kNoLevel ? levels::kLeafLevel : level);
      continue;
    }
    if (levels::is_aggregation_node(n)) continue;
    ranks.insert(levels::kHostLevel);
    hosts += levels::is_host(n);
    const double label = static_cast<double>(short_name(n, names).size()) * kCharPt + kMarginPt;
    row += std::max(kNodeHeightPt, label * std::sqrt(2.0)) + kNodeSepPt;
  }
  if (hosts == 0 || ranks.size() < 2) return false;
  const double ranksep = (fabric.links().size() > kSplineEdgeLimit ? 2.5 : 1.0) * 72;
  const double height = 2 * kPadPt + kLegendHeightPt +
                        static_cast<double>(ranks.size() - 1) * (ranksep + kNodeHeightPt);
  return row + 2 * kPadPt > kMaxMapAspect * height;
}

MapGraph build_map(const Fabric& fabric, const levels::FabricLevels& levels,
                   const MapAnnotations& annotations, const MapOptions& options) {
  return MapBuilder(fabric, levels, annotations, options).build();
}

}  // namespace ibpm::viz
