// SPDX-License-Identifier: MIT
// The fabric from sim::make_fat_tree, started in ibsim; GUIDs from one ibnetdiscover dump.
#include "support/live_fabric.hpp"

#include <chrono>
#include <fstream>
#include <stdexcept>

#include "fabric/types.hpp"
#include "support/simulator.hpp"
#include "topology/topology.hpp"

namespace ibpm::test {

LiveFabric LiveFabric::start(const std::vector<sim::LinkDegradation>& degraded) {
  sim::FatTree tree = small_tree(36, 12);
  for (const sim::LinkDegradation& d : degraded) sim::degrade_link(tree.topology, d);
  sim::SimulatedFabric fabric = sim::SimulatedFabric::start_text(tree.net_file());
  return LiveFabric{std::move(tree), std::move(fabric)};
}

ProcessRun LiveFabric::run(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> argv{bin(program)};
  argv.insert(argv.end(), args.begin(), args.end());
  ProcessRun run;
  const auto start = std::chrono::steady_clock::now();
  run.exit_code = fabric.run_client(argv, &run.out, &run.err);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

std::string LiveFabric::peer_name(const std::string& node, int port) const {
  const auto index = tree.topology.find_node(node);
  if (!index) throw std::invalid_argument("no node " + node + " in the net file");
  const auto peer = tree.topology.peer({*index, port});
  if (!peer) throw std::invalid_argument(node + "[" + std::to_string(port) + "] is not cabled");
  return tree.topology.port_name(*peer);
}

std::vector<int> LiveFabric::cabled_ports(const std::string& node) const {
  const auto index = tree.topology.find_node(node);
  if (!index) throw std::invalid_argument("no node " + node + " in the net file");
  std::vector<int> ports;
  for (int p = 1; p <= tree.topology.node(*index).port_count; ++p)
    if (tree.topology.peer({*index, p})) ports.push_back(p);
  return ports;
}

std::string LiveFabric::guid_of(const std::string& node) {
  if (guids_.empty()) {
    std::string dump;
    if (fabric.run_client({"ibnetdiscover"}, &dump) != 0)
      throw std::runtime_error("ibnetdiscover failed");
    const auto path = fabric.work_dir() / "guids.ibnetdiscover";
    std::ofstream(path) << dump;
    const topology::Topology topology = topology::load_topology_file(path.string());
    for (const Node& n : topology.fabric.nodes()) guids_[n.description] = format_guid(n.guid);
  }
  const auto it = guids_.find(node);
  if (it == guids_.end()) throw std::invalid_argument("ibnetdiscover found no node " + node);
  return it->second;
}

ConsoleUndo::~ConsoleUndo() {
  try {
    live_.console(undo_);
  } catch (...) {
  }
}

std::string StateDir::port_rrd(LiveFabric& live, const std::string& node, int port) const {
  return (dir_.path() / live.guid_of(node) / ("port" + std::to_string(port) + ".rrd")).string();
}

}  // namespace ibpm::test
