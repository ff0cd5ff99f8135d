// SPDX-License-Identifier: MIT
// The sweep summary read back (STATE_DIR/sweep/fabric.json and the shards' files, see
// sweep_summary.hpp): for the dashboard and other readers, without the sweep's headers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::products {

inline constexpr int kSweepSummaryFormat = 1;

// Read back: the last sweep of a state directory, its shard files added together.

struct PortNotOk {
  Guid node = 0;
  int port = 0;
  std::string name;  // "leaf02[3]" as the sweep named it
  std::string remote;
  std::string state;  // "WARNING", "CRITICAL", "UNKNOWN"
  std::string reason;
};

struct SweepSummary {
  std::vector<std::string> files;  // the summaries read
  double started = 0;              // epoch seconds of the oldest shard's sweep
  double duration = 0;             // the longest shard's
  long fabric_ports = 0, ports = 0, polled = 0, in_error = 0, saturated = 0, unreachable = 0,
       unreachable_nodes = 0;
  double xmit_octets_s = 0;  // the fabric's aggregate bandwidth (sum of PortXmitData rates)
  std::vector<PortNotOk> ports_not_ok;
};

// nullopt when the folder holds no summary. Throws std::runtime_error "FILE: reason" for a
// summary that cannot be read or parsed, or of a format newer than kSweepSummaryFormat.
std::optional<SweepSummary> read_sweep_summary(const std::string& state_dir);

}  // namespace ibpm::products
