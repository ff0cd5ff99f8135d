// SPDX-License-Identifier: MIT
// A port's reading as the sampler gives it (poll/port_sampler.hpp) and results keep it: whether
// and when it answered, the agent's capabilities and PortInfo, without the engine that read it.
#pragma once

#include <optional>

#include "base/rare_text.hpp"
#include "fabric/fabric.hpp"
#include "mad/pma_capabilities.hpp"
#include "poll/target.hpp"

namespace ibpm::poll {

// A port's reading without its counters: a sweep's result keeps those in the room of its rates
// until they are computed (PortResult::readings), then once, in the sample it writes
// (state::PortRecord::raw), not a second time here (144 bytes a port).
struct PortSample {
  bool answered = false;      // counters read
  bool cut = false;           // not read because the run's deadline came first
  bool live_read = false;     // PortInfo read in this run (not remembered)
  bool caps_queried = false;  // learnt in this run (not from the state)
  bool extended = false;      // data/packet counters from PortCountersExtended
  bool all_extended = false;  // every counter from PortCountersExtended alone (64-bit)
  mad::PmaCapabilities caps;
  double time = 0;       // epoch seconds when the counters arrived
  base::RareText error;  // why not, when not ("no answer after 4 tries", "MAD status 0x000c")
  std::optional<Guid> answered_as;  // the node GUID that answered NodeInfo at the LID
  std::optional<LinkState> live;    // state/width/speed from PortInfo

  // The topology no longer describes this LID: another node answers, or nothing does.
  bool stale_topology(const PortTarget& target) const;
};

// A sample with its counters, as sample_ports gives it.
struct PortReading : PortSample {
  mad::CounterValues values{};
};

}  // namespace ibpm::poll
