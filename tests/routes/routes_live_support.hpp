// SPDX-License-Identifier: MIT
// Shared by the live routes tests: a simulated three-level fat tree with a state directory,
// ibpm-routes and ibtracert run as its clients, ibtracert's output read into hops, OpenSM run
// again after a cable change, and a forwarding table as ibroute prints it.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/fat_tree.hpp"
#include "sim/simulated_fabric.hpp"
#include "support/process.hpp"

namespace ibpm::routes::test {

using ibpm::test::ProcessRun;

// One cable crossed, as ibtracert names it: out of from_node[from_port] into to_node[to_port].
struct TracedHop {
  std::string from_node;
  int from_port = 0;
  std::string to_node;
  int to_port = 0;
  std::string from() const { return from_node + "[" + std::to_string(from_port) + "]"; }
};

// ibtracert's lines "[12] -> switch port {0x...}[1] lid 83-83 "spine06"" after its "From ca
// ... "cn0001"" line, as hops. Throws std::runtime_error on anything else.
std::vector<TracedHop> parse_ibtracert(const std::string& text);

class RoutesFabric {
 public:
  // `hosts` hosts on radix-12 switches, three levels.
  explicit RoutesFabric(int hosts);
  ~RoutesFabric();
  RoutesFabric(const RoutesFabric&) = delete;
  RoutesFabric& operator=(const RoutesFabric&) = delete;

  const sim::FatTree& tree() const { return tree_; }
  sim::SimulatedFabric& fabric() { return fabric_; }
  // LIDs by NodeDescription, from ibnetdiscover (switches: port 0, hosts: port 1).
  const std::map<std::string, int>& lids() const { return lids_; }
  void rediscover_lids();

  ProcessRun routes(std::vector<std::string> args);        // bin/ibpm-routes --state-dir DIR ARGS
  ProcessRun check_routes(std::vector<std::string> args);  // bin/check_ib_routes --state-dir ...
  std::string state_dir() const { return state_dir_.string(); }
  ProcessRun client(const std::vector<std::string>& argv);
  std::string tracert(const std::string& source, const std::string& destination);
  // ibtracert over every pair, from several threads; by pair (source, destination).
  std::map<std::pair<std::string, std::string>, std::string> tracert_pairs(
      const std::vector<std::pair<std::string, std::string>>& pairs);
  // One more OpenSM sweep (it re-routes around cables gone down); keeps the LIDs.
  void resweep();
  // ibroute SWITCH: egress port by LID.
  std::map<int, int> ibroute(const std::string& node);

 private:
  sim::FatTree tree_;
  sim::SimulatedFabric fabric_;
  std::filesystem::path state_dir_;
  std::map<std::string, int> lids_;
  int sweeps_ = 0;
};

}  // namespace ibpm::routes::test
