// One reading of many ports in as few round trips as the MAD engine allows:
//   - NodeInfo at each LID: is the node there the one the topology says?
//   - PortInfo of each port (and of port 0 of a switch, whose CapabilityMask applies): state,
//     width and speed right now;
//   - ClassPortInfo of each agent whose capabilities the state does not know yet;
//   - PortCounters, and PortCountersExtended where the agent has them.
// Queries whose agent's capabilities are already known all go out in the first round.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mad/mad_engine.hpp"
#include "mad/pma.hpp"
#include "mad/smp.hpp"
#include "poll/target.hpp"

namespace ibpm::poll {

struct PortSample {
  bool answered = false;   // counters read
  std::string error;       // why not, when not ("no answer after 4 tries", "MAD status 0x000c")
  std::optional<mad::NodeInfo> node_info;  // who answered at the LID
  std::optional<Port> live;                // state/width/speed from PortInfo
  mad::PmaCapabilities caps;
  bool caps_queried = false;               // learnt in this run (not from the state)
  mad::CounterValues values{};
  bool extended = false;                   // data/packet counters from PortCountersExtended
  double time = 0;                         // epoch seconds when the counters arrived

  // The topology no longer describes this LID: another node answers, or nothing does.
  bool stale_topology(const PortTarget& target) const;
};

// Capabilities known per LID (from the state of an earlier run).
using KnownCapabilities = std::map<unsigned, mad::PmaCapabilities>;

// With probe_nodes_first, one NodeInfo per LID goes out alone first, and the ports of a LID that
// does not answer are not queried at all: a dead node then holds one slot of the window for its
// backoff budget instead of one per query (what a whole-fabric sweep needs). Without it, one
// round trip less (what a check of one node wants).
std::vector<PortSample> sample_ports(mad::MadEngine& engine, const std::vector<PortTarget>& targets,
                                     const KnownCapabilities& known,
                                     const mad::EngineOptions& options,
                                     bool probe_nodes_first = false);

double to_epoch_seconds(std::chrono::system_clock::time_point time);

}  // namespace ibpm::poll
