// SPDX-License-Identifier: MIT

#include "viz/fold_units.hpp"

#include <algorithm>
#include <map>

#include "locality/down_sets.hpp"
#include "viz/map_text.hpp"

namespace ibpm::viz {

std::string_view to_string(UnitKind kind) {
  switch (kind) {
    case UnitKind::pod:
      return "pod";
    case UnitKind::chassis:
      return "chassis";
    case UnitKind::group:
      return "group";
    case UnitKind::leaf:
      break;
  }
  return "leaf";
}

std::size_t home_switch(const Fabric& fabric, std::size_t host_index) {
  const Node& host = fabric.nodes()[host_index];
  for (const Port& p : host.ports) {
    if (!p.present || !p.link) continue;
    const Link& link = fabric.links()[*p.link];
    const PortRef far = link.a.node == host.guid && link.a.port == p.number ? link.b : link.a;
    const std::size_t index = fabric.index_of(far.node);
    if (fabric.nodes()[index].type == NodeType::sw) return index;
  }
  return kNoUnit;
}

namespace {

// Above this many groups of one level, switches are grouped by the units they reach instead of
// the switches (every core of a full three-level tree reaches every pod: one group).
constexpr std::size_t kMaxGroups = 64;
// A subtree of more switches than this is not one pod (its map would be unreadable): its
// subtrees are, and its top switches are grouped.
constexpr std::size_t kMaxPodSwitches = 100;
// Above this many leaves outside pods (a large two-level fabric), leaves sharing their spines
// fold into one group.
constexpr std::size_t kMaxLeafUnits = 300;

class UnitFinder {
 public:
  UnitFinder(const Fabric& fabric, const levels::FabricLevels& levels, const NodeNameMap* names)
      : fabric_(fabric), levels_(levels), names_(names), neighbours_(fabric.nodes().size()) {
    result_.unit_of.assign(fabric.nodes().size(), kNoUnit);
    result_.home_of.assign(fabric.nodes().size(), kNoUnit);
    for (const Link& link : fabric.links()) {
      const std::size_t a = fabric.index_of(link.a.node);
      const std::size_t b = fabric.index_of(link.b.node);
      if (a == b || !is_switch(a) || !is_switch(b)) continue;
      neighbours_[a].push_back(b);
      neighbours_[b].push_back(a);
    }
    for (auto& n : neighbours_) {
      std::sort(n.begin(), n.end());
      n.erase(std::unique(n.begin(), n.end()), n.end());
    }
  }

  FoldUnits find() {
    add_pods();
    add_chassis();
    add_leaves();
    add_groups();
    keep_hosts_with_their_switch();
    return std::move(result_);
  }

 private:
  bool is_switch(std::size_t i) const { return fabric_.nodes()[i].type == NodeType::sw; }
  bool placed(std::size_t i) const { return result_.unit_of[i] != kNoUnit; }

  std::string name_of(std::size_t i) const { return short_name(fabric_.nodes()[i], names_); }

  // "spine01..spine18", or the one name.
  std::string range_label(const std::vector<std::size_t>& switches) const {
    std::vector<std::string> names;
    for (std::size_t s : switches) names.push_back(name_of(s));
    std::sort(names.begin(), names.end());
    return names.size() == 1 ? names.front() : names.front() + ".." + names.back();
  }
  // "spine01..spine18 (18 spines)", or the one name.
  std::string range_name(const std::vector<std::size_t>& switches, int level) const {
    if (switches.size() == 1) return range_label(switches);
    return range_label(switches) + " (" + std::to_string(switches.size()) + " " +
           levels_.name(level) + "s)";
  }

  std::size_t add_unit(UnitKind kind, std::vector<std::size_t> switches, std::string name,
                       std::string label) {
    std::sort(switches.begin(), switches.end());
    FoldUnit unit;
    unit.kind = kind;
    unit.switches = std::move(switches);
    unit.id = std::string(to_string(kind)) + "-" +
              format_guid(fabric_.nodes()[unit.switches.front()].guid);
    unit.name = std::move(name);
    unit.label = std::move(label);
    for (std::size_t s : unit.switches) {
      unit.rank = std::max(unit.rank, levels_.level(s));
      result_.unit_of[s] = result_.units.size();
    }
    result_.units.push_back(std::move(unit));
    return result_.units.size() - 1;
  }

  // The largest proper subtrees rooted above the leaves, each taken whole once.
  void add_pods() {
    const locality::DownSets down(fabric_, levels_);
    const std::size_t all = down.hosts().size();
    std::map<boost::dynamic_bitset<>, std::vector<std::size_t>> roots_by_set;
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i) {
      const auto& bits = down.of(i);
      if (is_switch(i) && levels_.level(i) > levels::kLeafLevel && bits.any() && bits.count() < all)
        roots_by_set[bits].push_back(i);
    }
    std::vector<const decltype(roots_by_set)::value_type*> sets;
    for (const auto& entry : roots_by_set) sets.push_back(&entry);
    std::stable_sort(sets.begin(), sets.end(),
                     [](auto* a, auto* b) { return a->first.count() > b->first.count(); });
    for (const auto* set : sets) {
      const auto& [bits, roots] = *set;
      if (std::any_of(roots.begin(), roots.end(), [&](std::size_t r) { return placed(r); }))
        continue;  // inside a larger pod
      std::vector<std::size_t> members;
      for (std::size_t i = 0; i < fabric_.nodes().size(); ++i)
        if (is_switch(i) && !placed(i) && down.of(i).any() && down.of(i).is_subset_of(bits))
          members.push_back(i);
      if (members.size() > kMaxPodSwitches) continue;
      int level = levels::kNoLevel;
      for (std::size_t r : roots) level = std::max(level, levels_.level(r));
      add_unit(UnitKind::pod, std::move(members), "pod of " + range_name(roots, level),
               "pod " + range_label(roots));
    }
  }

  void add_chassis() {
    for (const levels::Chassis& c : levels::chassis(fabric_)) {
      if (std::any_of(c.switches.begin(), c.switches.end(),
                      [&](std::size_t s) { return placed(s); }))
        continue;
      std::string name = name_of(c.switches.front());
      // Director ASICs are usually described "NAME/L05/U1": the chassis is NAME.
      if (const auto slash = name.find('/'); slash != std::string::npos && slash > 0)
        name = name.substr(0, slash);
      add_unit(UnitKind::chassis, c.switches, "chassis " + name, "chassis " + name);
    }
  }

  void add_leaves() {
    std::vector<std::size_t> leaves;
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i)
      if (is_switch(i) && !placed(i) && levels_.level(i) <= levels::kLeafLevel) leaves.push_back(i);
    if (leaves.size() <= kMaxLeafUnits) {
      for (std::size_t leaf : leaves)
        add_unit(UnitKind::leaf, {leaf}, name_of(leaf), name_of(leaf));
      return;
    }
    group_by(leaves, [&](std::size_t s) { return neighbours_[s]; });
  }

  void add_groups() {
    std::vector<std::size_t> rest;
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i)
      if (is_switch(i) && !placed(i)) rest.push_back(i);
    const auto by_switch = [&](std::size_t s) { return neighbours_[s]; };
    const auto by_unit = [&](std::size_t s) {
      std::vector<std::size_t> units;
      for (std::size_t n : neighbours_[s])
        units.push_back(placed(n) ? result_.unit_of[n] : kNoUnit - 1 - n);
      std::sort(units.begin(), units.end());
      units.erase(std::unique(units.begin(), units.end()), units.end());
      return units;
    };
    if (count_groups(rest, by_switch) <= kMaxGroups)
      group_by(rest, by_switch);
    else
      group_by(rest, by_unit);
  }

  template <typename Key>
  std::map<std::pair<int, std::vector<std::size_t>>, std::vector<std::size_t>> groups(
      const std::vector<std::size_t>& switches, Key key) const {
    std::map<std::pair<int, std::vector<std::size_t>>, std::vector<std::size_t>> out;
    for (std::size_t s : switches) out[{levels_.level(s), key(s)}].push_back(s);
    return out;
  }

  template <typename Key>
  std::size_t count_groups(const std::vector<std::size_t>& switches, Key key) const {
    return groups(switches, key).size();
  }

  template <typename Key>
  void group_by(const std::vector<std::size_t>& switches, Key key) {
    std::vector<std::vector<std::size_t>> found;
    for (auto& [k, members] : groups(switches, key)) found.push_back(members);
    std::sort(found.begin(), found.end());  // fabric order of their first switch
    for (auto& members : found) {
      const int level = levels_.level(members.front());
      const UnitKind kind =
          members.size() == 1 && level <= levels::kLeafLevel ? UnitKind::leaf : UnitKind::group;
      std::string name = range_name(members, level);
      std::string label = range_label(members);
      if (members.size() > 1) name = levels_.name(level) + " group " + name;
      add_unit(kind, members, std::move(name), std::move(label));
    }
  }

  void keep_hosts_with_their_switch() {
    for (std::size_t i = 0; i < fabric_.nodes().size(); ++i) {
      if (is_switch(i)) {
        result_.home_of[i] = i;
        continue;
      }
      if (!levels::is_host(fabric_.nodes()[i])) continue;
      const std::size_t home = home_switch(fabric_, i);
      if (home == kNoUnit || !placed(home)) continue;
      result_.home_of[i] = home;
      result_.unit_of[i] = result_.unit_of[home];
      ++result_.units[result_.unit_of[home]].hosts;
    }
  }

  const Fabric& fabric_;
  const levels::FabricLevels& levels_;
  const NodeNameMap* names_;
  std::vector<std::vector<std::size_t>> neighbours_;  // switch neighbours of each switch
  FoldUnits result_;
};

}  // namespace

FoldUnits fold_units(const Fabric& fabric, const levels::FabricLevels& levels,
                     const NodeNameMap* names) {
  return UnitFinder(fabric, levels, names).find();
}

}  // namespace ibpm::viz
