// Shared by the live check tests: a fresh simulated fat tree per test, a private state
// directory, running check_ib_port / check_ib_node as clients, and reading what they print and
// what they stored (with librrd directly, not through the code under test).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/degrade.hpp"
#include "sim/fat_tree.hpp"
#include "sim/simulated_fabric.hpp"

namespace ibpm::checks::test {

struct CheckRun {
  int exit_code = -1;
  std::string out;
  std::string err;
  double seconds = 0;  // wall time of the run

  std::string first_line() const { return out.substr(0, out.find('\n')); }
  std::vector<std::string> lines() const;
  bool has(const std::string& text) const { return out.find(text) != std::string::npos; }
};

// 36 hosts on radix-12 switches (6 leaves, 3 spines, 4x HDR), as `ibpm-sim generate --hosts 36
// --radix 12` makes it. Leaf ports 1..6 go to hosts, 7..12 up (leaf01[7] <-> spine01[1]).
struct LiveFabric {
  sim::FatTree tree;
  sim::SimulatedFabric fabric;

  // `degraded` cables trained below 4x HDR (both ends), e.g. {"leaf01", 2, LinkWidth::x1}.
  static LiveFabric start(const std::vector<sim::LinkDegradation>& degraded = {});
  LiveFabric(sim::FatTree t, sim::SimulatedFabric f) : tree(std::move(t)), fabric(std::move(f)) {}

  // Runs bin/PROGRAM ARGS... as a client of the simulation.
  CheckRun run(const std::string& program, const std::vector<std::string>& args);
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
  explicit StateDir(const std::string& name);
  ~StateDir();
  StateDir(const StateDir&) = delete;
  StateDir& operator=(const StateDir&) = delete;

  std::string path() const { return path_.string(); }
  // STATE_DIR/<node GUID>/port<N>.rrd, as the checks document it.
  std::string port_rrd(LiveFabric& live, const std::string& node, int port) const;

 private:
  std::filesystem::path path_;
};

// What rrd_info_r says about a file (every value as text); throws std::runtime_error with
// librrd's error when it cannot read the file.
std::map<std::string, std::string> rrd_info(const std::string& path);
// ds[NAME].last_ds of the file.
std::string last_ds(const std::string& path, const std::string& source);
double sample_time(const std::string& path);

// The value of perfdata LABEL on the first line (its unit cut off); nullopt when absent.
std::optional<double> perf_value(const CheckRun& run, const std::string& label);

// |a - b| / |b| (|a - b| when b is 0).
double relative_difference(double a, double b);

double now_epoch_seconds();

}  // namespace ibpm::checks::test
