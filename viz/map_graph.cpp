#include "viz/map_graph.hpp"

#include <algorithm>
#include <unordered_map>

#include "plugin/number.hpp"
#include "viz/color_scale.hpp"
#include "viz/map_text.hpp"

namespace ibpm::viz {

std::optional<FoldMode> parse_fold_mode(std::string_view text) {
  if (text == "auto") return FoldMode::automatic;
  if (text == "hosts") return FoldMode::hosts;
  if (text == "none") return FoldMode::none;
  return std::nullopt;
}

namespace {

constexpr std::size_t kNone = static_cast<std::size_t>(-1);
constexpr std::size_t kGroupNamesShown = 8;

class MapBuilder {
 public:
  MapBuilder(const Fabric& fabric, const FabricLevels& levels, const MapAnnotations& annotations,
             const MapOptions& options)
      : fabric_(fabric),
        levels_(levels),
        annotations_(annotations),
        options_(options),
        drawn_(fabric.nodes().size(), kNone) {}

  MapGraph build() {
    map_.folded = fold_hosts();
    map_.window = annotations_.window;
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
      case FoldMode::hosts: return true;
      case FoldMode::none: return false;
      case FoldMode::automatic: break;
    }
    return fabric_.nodes().size() > options_.fold_above;
  }

  std::string node_url(Guid guid, const std::string& anchor = {}) const {
    if (!options_.urls) return {};
    return options_.url_prefix + "nodes/" + format_guid(guid) + ".html" + anchor;
  }

  void add_chassis() {
    for (const Chassis& c : chassis(fabric_)) {
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
    node.lines.push_back(short_name(n));
    node.tooltip = node_tooltip(fabric_, levels_, i, a, options_.names);
    node.url = node_url(n.guid);
    node.fill = kind == MapNodeKind::switch_node ? "#ffffff" : "#f0f0f0";
    if (a) {
      node.health = a->health;
      if (a->locality) {
        node.fill = locality_color(a->locality);
        node.lines.push_back("l " + plugin::format_fixed(*a->locality, 2) +
                             (a->transit ? " (transit)" : ""));
      }
    }
    return node;
  }

  // Mellanox/NVIDIA switches describe themselves "MF0;NAME:MODEL/U1": NAME is the label
  // (the tooltip keeps the description).
  std::string short_name(const Node& n) const {
    std::string name = display_name(n, options_.names);
    if (name.empty()) return format_guid(n.guid);
    if (n.type == NodeType::sw && name.starts_with("MF0;") &&
        !(options_.names && options_.names->find(n.guid))) {
      const auto colon = name.find(':');
      if (colon != std::string::npos && colon > 4) return name.substr(4, colon - 4);
    }
    return name;
  }

  void add_switches() {
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i) {
      if (fabric_.nodes()[i].type != NodeType::sw) continue;
      const int level = levels_.level(i);
      MapNode node = device_node(i, MapNodeKind::switch_node, level == kNoLevel ? kLeafLevel : level);
      if (auto c = chassis_of_.find(i); c != chassis_of_.end()) node.chassis = c->second;
      add_node(std::move(node), i);
    }
  }

  // The switch a host is drawn under when folded: the one on its lowest cabled port.
  std::size_t home_switch(const Node& host) const {
    for (const Port& p : host.ports) {
      if (!p.present || !p.link) continue;
      const Link& link = fabric_.links()[*p.link];
      const PortRef far = link.a.node == host.guid && link.a.port == p.number ? link.b : link.a;
      const std::size_t index = fabric_.index_of(far.node);
      if (fabric_.nodes()[index].type == NodeType::sw) return index;
    }
    return kNone;
  }

  void add_hosts() {
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i) {
      const Node& n = fabric_.nodes()[i];
      if (n.type == NodeType::sw) continue;
      if (is_aggregation_node(n)) {
        ++map_.hidden_aggregation_nodes;
        continue;
      }
      const MapNodeKind kind = is_host(n) ? MapNodeKind::host : MapNodeKind::other;
      const std::size_t home = map_.folded && kind == MapNodeKind::host ? home_switch(n) : kNone;
      if (home == kNone) {
        add_node(device_node(i, kind, kHostLevel), i);
        continue;
      }
      auto [group, added] = groups_.try_emplace(home, map_.nodes.size());
      if (added) {
        MapNode node;
        node.id = "h" + format_guid(fabric_.nodes()[home].guid);
        node.kind = MapNodeKind::host_group;
        node.rank = kHostLevel;
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
      std::size_t a = drawn_[fabric_.index_of(links[l].a.node)];
      std::size_t b = drawn_[fabric_.index_of(links[l].b.node)];
      if (a == kNone || b == kNone) continue;  // an aggregation node's cable
      const bool same_group = a == b && map_.nodes[a].kind == MapNodeKind::host_group;
      if (same_group) continue;  // host to host inside one folded node
      if (map_.nodes[a].rank < map_.nodes[b].rank || (map_.nodes[a].rank == map_.nodes[b].rank && b < a))
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
      map_.edges[edge].links.push_back(l);
    }
    for (MapEdge& e : map_.edges) finish_edge(e);
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
        g.lines.push_back(plugin::format_rate(rate));
        g.tooltip.push_back("traffic " + plugin::format_rate(rate) + " (sent + received, " +
                            std::to_string(measured) + " host cables measured)");
      }
      g.tooltip.push_back("health: " + std::string(to_string(g.health)) + " (worst host)");
      for (std::size_t k = 0; k < members.size() && k < kGroupNamesShown; ++k)
        g.tooltip.push_back(display_name(fabric_.nodes()[members[k]], options_.names));
      if (members.size() > kGroupNamesShown)
        g.tooltip.push_back("... and " + std::to_string(members.size() - kGroupNamesShown) + " more");
    }
  }

  void name_ranks() {
    for (const MapNode& n : map_.nodes)
      if (!map_.ranks.contains(n.rank)) map_.ranks[n.rank] = levels_.name(n.rank);
  }

  std::string title() const {
    const std::size_t switches = fabric_.count(NodeType::sw);
    std::size_t hosts = 0;
    for (const Node& n : fabric_.nodes()) hosts += is_host(n);
    std::string t = std::to_string(switches) + " switches, " + std::to_string(hosts) + " hosts, " +
                    std::to_string(fabric_.links().size()) + " cables";
    if (map_.folded) t += "; hosts folded per switch, parallel cables per pair";
    return t;
  }

  const Fabric& fabric_;
  const FabricLevels& levels_;
  const MapAnnotations& annotations_;
  const MapOptions& options_;
  MapGraph map_;
  std::vector<std::size_t> drawn_;                       // fabric node -> map node
  std::unordered_map<std::size_t, std::size_t> chassis_of_;  // switch -> chassis index
  std::map<std::size_t, std::size_t> groups_;            // home switch -> host group map node
  std::unordered_map<std::size_t, std::vector<std::size_t>> group_members_;  // by group map node
};

}  // namespace

MapGraph build_map(const Fabric& fabric, const FabricLevels& levels,
                   const MapAnnotations& annotations, const MapOptions& options) {
  return MapBuilder(fabric, levels, annotations, options).build();
}

}  // namespace ibpm::viz
