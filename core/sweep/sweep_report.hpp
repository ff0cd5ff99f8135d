// SPDX-License-Identifier: MIT
// A sweep as Nagios sees it:
//   IB FABRIC CRITICAL - 2592 ports polled in 0.21 s: 3 in error, 1 saturated, 1 unreachable
//   (1 node); worst: leaf01[3] <-> spine02[1] symbol_errors 12/s
// The long output lists the worst ports (both cable ends, the offending counter and rate), the
// unreachable nodes, and when the counters were read; perfdata gives fabric totals.
//
// Port states are those of check_ib_node, except that an unreachable node counts as
// --unreachable (WARNING by default): one host powered off is not an unknown fabric.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "plugin/result.hpp"
#include "poll/port_report.hpp"
#include "sweep/sweep.hpp"

namespace ibpm::sweep {

struct SweepReportSettings {
  poll::ReportSettings port;
  plugin::State unreachable = plugin::State::warning;
  std::size_t worst = 10;         // ports (and unreachable nodes) named in the long output
  std::size_t summary_ports = 1;  // worst ports named in the status line
};

// What is said of a port that is not OK.
struct VerdictDetail {
  plugin::Subcheck check;  // as check_ib_node shows the port
  std::string cable;       // "leaf01[3] <-> spine02[1]"
  std::string reason;      // the metrics that set the state ("symbol_errors 12/s > 10/s")
};

// A port's part in the congestion trees of the sweep (add_congestion_roots).
enum class CongestionPart : std::uint8_t { none, victim, root };

// One port's verdict. An OK port has no detail: nothing shows it, and a sweep holds a verdict
// per port (an empty line, cable and reason took 150 bytes each).
struct PortVerdict {
  const poll::PortResult* result = nullptr;
  plugin::State state = plugin::State::ok;
  // The port speaks for its cable, and the cable flaps (judge_ports: one end of each cable).
  bool flapping = false;
  CongestionPart congestion = CongestionPart::none;  // held in the padding: no byte more a port
  std::unique_ptr<VerdictDetail> detail;             // set when the state is not OK

  // The detail's, or empty for an OK port.
  const plugin::Subcheck& check() const;
  const std::string& cable() const;
  const std::string& reason() const;
};

std::vector<PortVerdict> judge_ports(const SweepResult& sweep, const SweepReportSettings& settings);

// A node none of whose swept ports answered.
struct UnreachableNode {
  std::string name;  // as its ports are named
  unsigned lid = 0;
  std::size_t ports = 0;
  std::string error;  // why its first port was not read
};

struct SweepCounts {
  std::size_t polled = 0;       // ports with counters read
  std::size_t in_error = 0;     // polled ports that are WARNING or CRITICAL
  std::size_t saturated = 0;    // polled ports with a counter at its maximum
  std::size_t unreachable = 0;  // ports whose counters could not be read
  std::size_t baseline = 0;     // polled ports with no earlier sample yet
  std::size_t unknown = 0;      // polled ports whose state file could not be read or written
  std::size_t not_read = 0;     // ports not read because the run's time (-t) ran out
  std::vector<UnreachableNode> unreachable_nodes;  // in fabric order
};

SweepCounts count_ports(const std::vector<PortVerdict>& verdicts);

// The sum of the port's error rates (per second): orders ports of the same state.
double error_rate(const poll::PortResult& result);

// "shard 2/4" or "" for a whole-fabric sweep.
std::string shard_label(const SweepOptions& options);

plugin::Check sweep_check(const SweepOptions& options, const SweepResult& sweep,
                          const std::vector<PortVerdict>& verdicts,
                          const SweepReportSettings& settings, int verbosity);

// Fabric totals: port counts, summed error rates per counter, aggregate bandwidth, timing.
std::vector<plugin::Perfdata> sweep_perfdata(const SweepResult& sweep,
                                             const std::vector<PortVerdict>& verdicts,
                                             const SweepCounts& counts);

}  // namespace ibpm::sweep
