// SPDX-License-Identifier: MIT
// Shared by the simulated-fabric tests: skipping without ibsim, small fabrics, and reading
// ibnetdiscover output (parsed from text, or run on a running simulation).
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/fat_tree.hpp"
#include "sim/sim_programs.hpp"
#include "sim/simulated_fabric.hpp"
#include "support/skip.hpp"

namespace ibpm::test {

// A test case without the simulator is reported Skipped (see support/skip.hpp).
#define IBPM_REQUIRE_SIMULATOR()                                                        \
  do {                                                                                  \
    auto ibpm_missing_ = ::ibpm::sim::missing_simulator_parts();                        \
    if (!ibpm_missing_.empty())                                                         \
      IBPM_SKIP(                                                                        \
          "ibsim not installed (apt-get install ibsim-utils opensm infiniband-diags); " \
          "missing: "                                                                   \
          << ibpm_missing_.front());                                                    \
  } while (0)

inline sim::FatTree small_tree(int hosts = 16, int radix = 8, const std::string& prefix = "cn") {
  sim::FatTreeOptions options;
  options.hosts = hosts;
  options.radix = radix;
  options.host_prefix = prefix;
  return sim::make_fat_tree(options);
}

// One cabled port in ibnetdiscover output, seen from `node`.
struct DiscoveredPort {
  std::string node;  // NodeDescription
  int port = 0;
  std::string peer;  // the peer's NodeDescription
  std::string rate;  // "4xHDR"
};

struct Discovery {
  std::set<std::string> switches;
  std::set<std::string> cas;
  std::map<std::string, int> lids;  // switches: port 0; CAs: port 1
  std::vector<DiscoveredPort> ports;

  std::optional<DiscoveredPort> port(const std::string& node, int number) const {
    for (const DiscoveredPort& p : ports)
      if (p.node == node && p.port == number) return p;
    return std::nullopt;
  }
};

// Parses `ibnetdiscover` output (node headers `Switch 8 "S-..." # "leaf01" base port 0 lid 2
// lmc 0`, `Ca 1 "H-..." # "cn0001"`; port lines `[1] "H-..."[1](..) # "cn0001" lid 1 4xHDR`,
// for CAs `[1](..) "S-..."[1] # lid 1 lmc 0 "leaf01" lid 2 4xHDR`).
Discovery parse_ibnetdiscover(const std::string& text);

// ibnetdiscover run as a client of the simulation, parsed; throws std::runtime_error when it fails.
Discovery discover(sim::SimulatedFabric& fabric);

}  // namespace ibpm::test
