// SPDX-License-Identifier: MIT
// A fresh simulated fat tree per test with our programs run as its clients, console commands
// undone when the test ends, and a private state directory (the checks, the sweep, locality and
// Nagios tests share them).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/degrade.hpp"
#include "sim/fat_tree.hpp"
#include "sim/simulated_fabric.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace ibpm::test {

// 36 hosts on radix-12 switches (6 leaves, 3 spines, 4x HDR), as `ibpm-sim generate --hosts 36
// --radix 12` makes it. Leaf ports 1..6 go to hosts, 7..12 up (leaf01[7] <-> spine01[1]).
struct LiveFabric {
  sim::FatTree tree;
  sim::SimulatedFabric fabric;

  // `degraded` cables trained below 4x HDR (both ends), e.g. {"leaf01", 2, LinkWidth::x1}.
  static LiveFabric start(const std::vector<sim::LinkDegradation>& degraded = {});
  LiveFabric(sim::FatTree t, sim::SimulatedFabric f) : tree(std::move(t)), fabric(std::move(f)) {}

  // Runs bin/PROGRAM ARGS... as a client of the simulation (stderr captured apart).
  ProcessRun run(const std::string& program, const std::vector<std::string>& args);
  std::string console(const std::string& command) { return fabric.console(command); }

  // "spine01[1]": the far end of a port's cable in the net file.
  std::string peer_name(const std::string& node, int port) const;
  // Ports of the node with a cable in the net file.
  std::vector<int> cabled_ports(const std::string& node) const;
  // "0x..." of the node, from an ibnetdiscover run (not from anything the checks wrote).
  std::string guid_of(const std::string& node);

 private:
  std::map<std::string, std::string> guids_;
};

// Undoes a console command when the test ends, however it ends.
class ConsoleUndo {
 public:
  ConsoleUndo(LiveFabric& live, std::string undo) : live_(live), undo_(std::move(undo)) {}
  ~ConsoleUndo();
  ConsoleUndo(const ConsoleUndo&) = delete;
  ConsoleUndo& operator=(const ConsoleUndo&) = delete;

 private:
  LiveFabric& live_;
  std::string undo_;
};

// A fresh state directory, removed afterwards.
class StateDir {
 public:
  explicit StateDir(const std::string& name) : dir_("checks-" + name) {}

  std::string path() const { return dir_.path().string(); }
  // STATE_DIR/<node GUID>/port<N>.rrd, as the checks document it.
  std::string port_rrd(LiveFabric& live, const std::string& node, int port) const;

 private:
  TempDir dir_;
};

}  // namespace ibpm::test
