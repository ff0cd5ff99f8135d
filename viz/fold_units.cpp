// SPDX-License-Identifier: MIT

#include "viz/fold_units.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

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

namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// <0, 0, >0 as a reads before, like, after b; runs of digits by value ("a01" is like "a1").
int natural_compare(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::size_t a_end = i, b_end = j;
      while (a_end < a.size() && is_digit(a[a_end])) ++a_end;
      while (b_end < b.size() && is_digit(b[b_end])) ++b_end;
      while (i + 1 < a_end && a[i] == '0') ++i;  // leading zeros do not count
      while (j + 1 < b_end && b[j] == '0') ++j;
      if (a_end - i != b_end - j) return a_end - i < b_end - j ? -1 : 1;
      if (const int c = a.substr(i, a_end - i).compare(b.substr(j, b_end - j)); c != 0) return c;
      i = a_end;
      j = b_end;
      continue;
    }
    if (a[i] != b[j])
      return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]) ? -1 : 1;
    ++i;
    ++j;
  }
  const std::size_t a_rest = a.size() - i, b_rest = b.size() - j;
  return a_rest == b_rest ? 0 : (a_rest < b_rest ? -1 : 1);
}

// Natural order, then byte order, then `a_tie` against `b_tie`: a total order.
bool name_before(std::string_view a, std::size_t a_tie, std::string_view b, std::size_t b_tie) {
  if (const int c = natural_compare(a, b); c != 0) return c < 0;
  if (const int c = a.compare(b); c != 0) return c < 0;
  return a_tie < b_tie;
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) { return natural_compare(a, b) < 0; }

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
    place_nodes();
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

  // The left-to-right order (FoldUnits::place): units in place_units' order, the switches of a
  // unit by name, every other node under its home switch by name.
  void place_nodes() {
    const auto& nodes = fabric_.nodes();
    std::vector<std::string> names(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) names[i] = name_of(i);
    const std::vector<std::size_t> unit_place = place_units(names);
    std::vector<std::size_t> switches, others;
    for (std::size_t i = 0; i < nodes.size(); ++i) (is_switch(i) ? switches : others).push_back(i);
    const auto unit_place_of = [&](std::size_t s) {
      return placed(s) ? unit_place[result_.unit_of[s]] : unit_place.size();
    };
    std::sort(switches.begin(), switches.end(), [&](std::size_t a, std::size_t b) {
      if (unit_place_of(a) != unit_place_of(b)) return unit_place_of(a) < unit_place_of(b);
      return name_before(names[a], a, names[b], b);
    });
    result_.place.assign(nodes.size(), 0);
    for (std::size_t k = 0; k < switches.size(); ++k) result_.place[switches[k]] = k;
    std::vector<std::size_t> under(nodes.size(), switches.size());  // its home switch's place
    for (std::size_t i : others)
      if (const std::size_t home = home_switch(fabric_, i); home != kNoUnit)
        under[i] = result_.place[home];
    std::sort(others.begin(), others.end(), [&](std::size_t a, std::size_t b) {
      if (under[a] != under[b]) return under[a] < under[b];
      return name_before(names[a], a, names[b], b);
    });
    for (std::size_t k = 0; k < others.size(); ++k) result_.place[others[k]] = k;
  }

  // The units' order: those holding leaves by the name of their first leaf (so pods follow their
  // leaves' numbering); then, lowest level first, every other unit at the mean position of the
  // units it is cabled to that have one (a core group over the pods it reaches), those with none
  // last; ties by their first switch's name.
  std::vector<std::size_t> place_units(const std::vector<std::string>& names) const {
    const std::vector<FoldUnit>& units = result_.units;
    const auto first_name = [&](std::size_t u, bool leaves_only) {
      std::size_t best = kNoUnit;
      for (std::size_t s : units[u].switches)
        if ((!leaves_only || levels_.level(s) <= levels::kLeafLevel) &&
            (best == kNoUnit || name_before(names[s], s, names[best], best)))
          best = s;
      return best;
    };
    std::vector<std::size_t> first(units.size());
    std::vector<std::size_t> bottom, upper;
    for (std::size_t u = 0; u < units.size(); ++u) {
      const std::size_t leaf = first_name(u, true);
      first[u] = leaf == kNoUnit ? first_name(u, false) : leaf;
      (leaf == kNoUnit ? upper : bottom).push_back(u);
    }
    const auto by_name = [&](std::size_t a, std::size_t b) {
      return name_before(names[first[a]], first[a], names[first[b]], first[b]);
    };
    std::sort(bottom.begin(), bottom.end(), by_name);
    std::vector<double> position(units.size(), -1);
    for (std::size_t k = 0; k < bottom.size(); ++k) position[bottom[k]] = static_cast<double>(k);
    std::sort(upper.begin(), upper.end(), [&](std::size_t a, std::size_t b) {
      if (units[a].rank != units[b].rank) return units[a].rank < units[b].rank;
      return by_name(a, b);
    });
    for (std::size_t u : upper) {
      std::vector<std::size_t> reached;
      for (std::size_t s : units[u].switches)
        for (std::size_t n : neighbours_[s])
          if (placed(n) && result_.unit_of[n] != u && position[result_.unit_of[n]] >= 0)
            reached.push_back(result_.unit_of[n]);
      std::sort(reached.begin(), reached.end());
      reached.erase(std::unique(reached.begin(), reached.end()), reached.end());
      double sum = 0;
      for (std::size_t r : reached) sum += position[r];
      position[u] = reached.empty() ? static_cast<double>(units.size())
                                    : sum / static_cast<double>(reached.size());
    }
    std::vector<std::size_t> order(units.size());
    for (std::size_t u = 0; u < units.size(); ++u) order[u] = u;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (position[a] != position[b]) return position[a] < position[b];
      return by_name(a, b);
    });
    std::vector<std::size_t> place(units.size());
    for (std::size_t k = 0; k < order.size(); ++k) place[order[k]] = k;
    return place;
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
