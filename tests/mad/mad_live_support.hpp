// SPDX-License-Identifier: MIT
// For test_mad_live: a small fat tree in ibsim, and mad_probe (our MAD engine, run as a client of
// the simulator) with its output read back.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/fat_tree.hpp"
#include "sim/simulated_fabric.hpp"
#include "support/simulator.hpp"

namespace ibpm::test {

// One reply line of mad_probe: "reply 0 pc:2:5 answered mad_status=0x0000 tries=1 key=value...",
// or one port of mad_probe --sample (status "sample"): "sample 0 2:5 answered=1 extended=1 ...".
struct ProbeReply {
  std::string query;   // as given: "pc:2:5"
  std::string status;  // answered, timed_out, failed
  int tries = 0;
  std::map<std::string, std::uint64_t> values;  // mad_status, port_select, capmask, counters

  std::uint64_t at(const std::string& key) const;  // FAILs when the reply has no such value
  bool answered() const { return status == "answered" && at("mad_status") == 0; }
};

struct ProbeRun {
  int exit_code = -1;
  std::vector<ProbeReply> replies;             // in query order
  std::vector<ProbeReply> again;               // mad_probe --again: the second run's
  std::map<std::string, std::uint64_t> stats;  // queries, sent, retries, ignored, elapsed_ms
  std::string out, errors;
};

// A cabled switch port, and the LID its switch's PMA answers at (port 0's).
struct SwitchPort {
  std::string node;
  int port = 0;
  unsigned lid = 0;

  std::string name() const { return node + "[" + std::to_string(port) + "]"; }
  std::string pc() const { return "pc:" + std::to_string(lid) + ":" + std::to_string(port); }
  std::string pcx() const { return "pcx:" + std::to_string(lid) + ":" + std::to_string(port); }
  std::string lid_port() const { return std::to_string(lid) + ":" + std::to_string(port); }
};

// small_tree() (16 hosts, radix 8: 4 leaves, 2 spines) running in ibsim, swept by
// OpenSM, with the LIDs ibnetdiscover finds. The client (mad_probe) hangs off cn0001 / leaf01.
struct LiveTree {
  sim::FatTree tree = small_tree();
  sim::SimulatedFabric fabric = sim::SimulatedFabric::start_text(tree.net_file());
  Discovery discovered = discover();

  unsigned lid(const std::string& node) const;
  std::vector<SwitchPort> switch_ports() const;  // every cabled port of every switch
  void console(const std::string& command) { fabric.console(command); }
  // PerformanceSet "node"[port] ATTRIBUTE.FIELD=VALUE
  void set_counter(const std::string& node, int port, const std::string& field,
                   std::uint64_t value);

  // mad_probe OPTIONS... QUERIES...; REQUIREs a clean exit and one reply per query.
  ProbeRun probe(const std::vector<std::string>& options, const std::vector<std::string>& queries);
  // The same with ibsim stopped (SIGSTOP) from just before the engine run until `frozen` has
  // passed, or until the run is over when `frozen` is zero: nothing answers meanwhile.
  ProbeRun probe_frozen(std::vector<std::string> options, const std::vector<std::string>& queries,
                        std::chrono::milliseconds frozen);

 private:
  Discovery discover();
  ProbeRun run_probe(const std::vector<std::string>& options,
                     const std::vector<std::string>& queries);
};

std::vector<std::string> pc_queries(const std::vector<SwitchPort>& ports);
std::vector<std::string>
error_counter_names();  // "SymbolErrorCounter", ... as perfquery names them

}  // namespace ibpm::test
