// SPDX-License-Identifier: MIT
// Folded-Clos (fat tree) fabrics of two or three switch levels, for a host count and a switch
// radix, as a NetTopology plus a description of the structure that tests can check against.
//
// Layout (k = radix, d / u = host / uplink ports per leaf, d = u = k/2 unless oversubscribed):
//   two levels    leaves = ceil(hosts / d); every leaf has the same number p of links to every
//                 spine and spines = u / p, where p is the largest divisor of u for which the
//                 spines' k ports still take every leaf: the fewest spines (p = 1 for a full
//                 fabric: k leaves, k/2 spines, k*d hosts; 648 hosts at radix 36).
//   three levels  pods of up to k/2 leaves and their spines (spine ports 1..k/2 down, k/2+1..k
//                 up); every spine has as many uplinks as downlinks in a full pod; spine g of
//                 every pod connects to core group g, each pod with the same number of parallel
//                 links to each core of the group (full fabric: k pods, (k/2)^2 cores,
//                 k^3/4 hosts at d = k/2).
// Leaves take hosts in order (cn0001.. on leaf01's ports 1..d, and so on); a partial last leaf
// keeps all its uplinks. Port numbering: leaf 1..d hosts, d+1..k up; spine down ports from 1,
// up ports from k/2+1; core ports from 1 in pod order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "fabric/types.hpp"
#include "sim/net_topology.hpp"

namespace ibpm::sim {

struct FatTreeOptions {
  int hosts = 0;
  int radix = 36;
  int levels = 2;  // 2 or 3
  LinkWidth width = LinkWidth::x4;
  LinkSpeed speed = LinkSpeed::hdr;
  // Leaf host ports : uplinks, e.g. 2:1 puts 24 hosts and 12 uplinks on a 36-port leaf.
  int oversubscription_down = 1;
  int oversubscription_up = 1;
  std::string host_prefix = "cn";
};

struct FatTree {
  FatTreeOptions options;
  NetTopology topology;

  int host_ports_per_leaf = 0;  // d
  int uplinks_per_leaf = 0;     // u
  int leaf_spine_parallel = 0;  // links between a leaf and each of its spines
  int spine_uplinks = 0;        // three levels: uplinks per spine
  int spine_core_parallel = 0;  // three levels: links between a spine and each core it reaches
  int pods = 0;                 // three levels
  int spines_per_pod = 0;       // three levels
  int leaves_per_pod = 0;       // three levels: in a full pod

  std::vector<std::string> hosts;                    // cn0001, cn0002, ...
  std::vector<std::vector<std::string>> switches;    // [0] leaves, [1] spines, [2] cores
  std::vector<std::vector<std::string>> leaf_hosts;  // hosts under each leaf, by leaf index
  std::vector<std::size_t> host_leaf;                // leaf index of each host
  std::vector<int> leaf_pod;                         // three levels: pod of each leaf
  std::vector<int> spine_pod;                        // three levels: pod of each spine

  const std::vector<std::string>& leaves() const { return switches.at(0); }
  const std::vector<std::string>& spines() const { return switches.at(1); }
  std::size_t switch_count() const;
  // The ibsim net file: hosts first (cn0001 is where the SM attaches), then leaves, spines,
  // cores.
  std::string net_file() const;
  // One line per level, e.g. "648 hosts, 36 leaves, 18 spines, 1296 links".
  std::string summary() const;
};

// Throws std::invalid_argument when the options cannot be built (odd or too small radix,
// more hosts than the levels can hold, ...).
FatTree make_fat_tree(const FatTreeOptions& options);

// Largest host count the options' radix, levels and oversubscription can hold.
int fat_tree_capacity(const FatTreeOptions& options);

}  // namespace ibpm::sim
