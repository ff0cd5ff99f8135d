// SPDX-License-Identifier: MIT

#include "sim/fat_tree.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/net_file.hpp"

namespace ibpm::sim {
namespace {

int digits(std::size_t n) {
  int d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

// prefix + number, zero-padded to `width` digits.
std::string numbered(const std::string& prefix, std::size_t number, int width) {
  std::string n = std::to_string(number);
  if (static_cast<int>(n.size()) < width)
    n.insert(0, static_cast<std::size_t>(width) - n.size(), '0');
  return prefix + n;
}

std::vector<std::string> names(const std::string& prefix, std::size_t count, int min_width) {
  int width = std::max(min_width, digits(count));
  std::vector<std::string> out;
  out.reserve(count);
  for (std::size_t i = 1; i <= count; ++i) out.push_back(numbered(prefix, i, width));
  return out;
}

// Links from each of `lower` switches to each upper switch: the largest divisor of
// `links_each` with lower * p <= upper_ports, so the fewest upper switches take them all.
int parallel_links(int lower, int links_each, int upper_ports) {
  for (int p = links_each; p >= 1; --p)
    if (links_each % p == 0 && lower * p <= upper_ports) return p;
  throw std::invalid_argument("fat tree: " + std::to_string(lower) +
                              " switches do not fit on switches of " + std::to_string(upper_ports) +
                              " ports");
}

void split_leaf_ports(const FatTreeOptions& o, int& down, int& up) {
  if (o.radix < 4 || o.radix % 2 != 0 || o.radix > 254)
    throw std::invalid_argument("fat tree: radix must be even and 4..254");
  if (o.oversubscription_down < 1 || o.oversubscription_up < 1)
    throw std::invalid_argument("fat tree: oversubscription parts must be >= 1");
  down = static_cast<int>(static_cast<long long>(o.radix) * o.oversubscription_down /
                          (o.oversubscription_down + o.oversubscription_up));
  down = std::clamp(down, 1, o.radix - 1);
  up = o.radix - down;
}

std::vector<std::size_t> add_all(NetTopology& t, NodeType type,
                                 const std::vector<std::string>& names, int ports) {
  std::vector<std::size_t> indices;
  indices.reserve(names.size());
  for (const std::string& name : names) indices.push_back(t.add_node(type, name, ports));
  return indices;
}

}  // namespace

int fat_tree_capacity(const FatTreeOptions& options) {
  int down = 0, up = 0;
  split_leaf_ports(options, down, up);
  int k = options.radix;
  if (options.levels == 2) return k * down;
  if (options.levels == 3) return k * (k / 2) * down;
  throw std::invalid_argument("fat tree: levels must be 2 or 3");
}

std::size_t FatTree::switch_count() const {
  std::size_t n = 0;
  for (const auto& level : switches) n += level.size();
  return n;
}

std::string FatTree::net_file() const {
  std::string comment = std::to_string(options.levels) + "-level fat tree, radix " +
                        std::to_string(options.radix) + ": " + summary();
  return to_ibsim_net(topology, comment);
}

std::string FatTree::summary() const {
  auto count = [](std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
  };
  static const char* level_names[][2] = {
      {"leaf", "leaves"}, {"spine", "spines"}, {"core", "cores"}};
  std::string s = count(hosts.size(), "host", "hosts");
  for (std::size_t i = 0; i < switches.size() && i < 3; ++i)
    s += ", " + count(switches[i].size(), level_names[i][0], level_names[i][1]);
  return s + ", " + count(topology.links().size(), "link", "links");
}

FatTree make_fat_tree(const FatTreeOptions& options) {
  int down = 0, up = 0;
  split_leaf_ports(options, down, up);
  if (options.hosts < 1) throw std::invalid_argument("fat tree: at least one host is needed");
  int capacity = fat_tree_capacity(options);
  if (options.hosts > capacity)
    throw std::invalid_argument("fat tree: " + std::to_string(options.levels) +
                                " levels of radix " + std::to_string(options.radix) +
                                " switches hold at most " + std::to_string(capacity) + " hosts");

  const int k = options.radix;
  const int leaf_count = (options.hosts + down - 1) / down;
  const PortSetting setting{options.width, options.speed};

  FatTree ft;
  ft.options = options;
  ft.host_ports_per_leaf = down;
  ft.uplinks_per_leaf = up;
  ft.hosts = names(options.host_prefix, static_cast<std::size_t>(options.hosts), 4);
  ft.switches.push_back(names("leaf", static_cast<std::size_t>(leaf_count), 2));

  int spine_count = 0, core_count = 0, leaves_per_pod = leaf_count, core_groups = 0,
      cores_per_group = 0;
  if (options.levels == 2) {
    ft.leaf_spine_parallel = parallel_links(leaf_count, up, k);
    spine_count = up / ft.leaf_spine_parallel;
  } else {
    leaves_per_pod = std::min(leaf_count, k / 2);
    ft.pods = (leaf_count + leaves_per_pod - 1) / leaves_per_pod;
    ft.leaves_per_pod = leaves_per_pod;
    ft.leaf_spine_parallel = parallel_links(leaves_per_pod, up, k / 2);
    ft.spines_per_pod = up / ft.leaf_spine_parallel;
    spine_count = ft.pods * ft.spines_per_pod;
    // As many uplinks as a full pod's spine has downlinks: non-blocking above the leaves.
    ft.spine_uplinks = leaves_per_pod * ft.leaf_spine_parallel;
    ft.spine_core_parallel = parallel_links(ft.pods, ft.spine_uplinks, k);
    core_groups = ft.spines_per_pod;
    cores_per_group = ft.spine_uplinks / ft.spine_core_parallel;
    core_count = core_groups * cores_per_group;
  }
  ft.switches.push_back(names("spine", static_cast<std::size_t>(spine_count), 2));
  if (options.levels == 3)
    ft.switches.push_back(names("core", static_cast<std::size_t>(core_count), 2));

  NetTopology& t = ft.topology;
  std::vector<std::size_t> host_ids = add_all(t, NodeType::ca, ft.hosts, 1);
  std::vector<std::size_t> leaf_ids = add_all(t, NodeType::sw, ft.switches[0], k);
  std::vector<std::size_t> spine_ids = add_all(t, NodeType::sw, ft.switches[1], k);
  std::vector<std::size_t> core_ids;
  if (options.levels == 3) core_ids = add_all(t, NodeType::sw, ft.switches[2], k);

  ft.leaf_hosts.resize(static_cast<std::size_t>(leaf_count));
  for (int h = 0; h < options.hosts; ++h) {
    std::size_t leaf = static_cast<std::size_t>(h / down);
    t.connect({host_ids[static_cast<std::size_t>(h)], 1}, {leaf_ids[leaf], h % down + 1}, setting);
    ft.host_leaf.push_back(leaf);
    ft.leaf_hosts[leaf].push_back(ft.hosts[static_cast<std::size_t>(h)]);
  }

  const int p1 = ft.leaf_spine_parallel;
  const int spines_per_group = options.levels == 2 ? spine_count : ft.spines_per_pod;
  for (int leaf = 0; leaf < leaf_count; ++leaf) {
    int pod = options.levels == 2 ? 0 : leaf / leaves_per_pod;
    int local = options.levels == 2 ? leaf : leaf % leaves_per_pod;
    if (options.levels == 3) ft.leaf_pod.push_back(pod);
    for (int s = 0; s < spines_per_group; ++s) {
      std::size_t spine = spine_ids[static_cast<std::size_t>(pod * spines_per_group + s)];
      for (int l = 0; l < p1; ++l)
        t.connect({leaf_ids[static_cast<std::size_t>(leaf)], down + 1 + s * p1 + l},
                  {spine, local * p1 + l + 1}, setting);
    }
  }

  if (options.levels == 3) {
    const int p2 = ft.spine_core_parallel;
    for (int pod = 0; pod < ft.pods; ++pod) {
      for (int s = 0; s < ft.spines_per_pod; ++s) {
        std::size_t spine = spine_ids[static_cast<std::size_t>(pod * ft.spines_per_pod + s)];
        ft.spine_pod.push_back(pod);
        for (int c = 0; c < cores_per_group; ++c) {
          std::size_t core = core_ids[static_cast<std::size_t>(s * cores_per_group + c)];
          for (int l = 0; l < p2; ++l)
            t.connect({spine, k / 2 + 1 + c * p2 + l}, {core, pod * p2 + l + 1}, setting);
        }
      }
    }
  }
  return ft;
}

}  // namespace ibpm::sim
