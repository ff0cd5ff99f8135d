// SPDX-License-Identifier: MIT
// One reading of many ports, each node's queries starting as soon as the node allows, with no
// round of the whole run to wait for:
//   - NodeInfo at each LID: is the node there the one the topology says? With probe_nodes_first
//     it goes out alone, and the node's other queries follow its answer: a dead node then holds
//     one slot of the window for its backoff budget instead of one per query (what a
//     whole-fabric sweep needs). Without it everything goes out at once (a check of one node).
//     Where the hints allow (SampleHint::verify_node), it is asked only on a doubt.
//   - ClassPortInfo of each agent whose capabilities the state does not know yet; the agent's
//     counter queries follow its answer.
//   - The counters as mad::plan_counter_reads says: PortCounters, and PortCountersExtended where
//     the agent has them (1 or 2 MADs per port); PortCountersExtended alone where the agent has
//     its additional counters (1 MAD per port).
//   - PortInfo (and port 0's of a switch, whose CapabilityMask applies) where it may have
//     changed: asked up front when the hint says so, and as soon as the counters show that the
//     link went down or retrained since the last sample (LinkDownedCounter or
//     LinkErrorRecoveryCounter moved). Otherwise the last PortInfo read stands.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/rare_text.hpp"
#include "mad/mad_engine.hpp"
#include "mad/pma.hpp"
#include "mad/smp.hpp"
#include "poll/port_sample.hpp"
#include "poll/target.hpp"

namespace ibpm::poll {

// What an earlier run knew of a port, so that this one can skip queries whose answer cannot have
// changed. The default asks everything.
struct SampleHint {
  const LinkState* live = nullptr;  // PortInfo as last read (in the caller's record); null: ask it
  bool ask_port_info = true;        // ask PortInfo whatever the counters say
  // Ask NodeInfo (is the node at this LID still the one the topology says?) whatever the counters
  // say. Without it NodeInfo is asked only when a counter is lower than in `previous` (another
  // node's counters, or a reset), so that an unverified sample never goes unchecked into the
  // port's history on a doubt. A LID's agent is verified when any of its ports asks.
  bool verify_node = true;
  // The last sample's raw counters: PortInfo is asked when LinkDowned or LinkErrorRecovery moved
  // since, NodeInfo when a counter fell. Points into the caller's record, which outlives the
  // sampling (a copy per port would cost 144 bytes each); null: none.
  const mad::CounterValues* previous = nullptr;
};

// Capabilities known per LID (from the state of an earlier run).
using KnownCapabilities = std::map<unsigned, mad::PmaCapabilities>;

// hints: one per target, or empty (ask everything).
std::vector<PortReading> sample_ports(mad::MadEngine& engine,
                                      const std::vector<PortTarget>& targets,
                                      const KnownCapabilities& known,
                                      const mad::EngineOptions& options,
                                      bool probe_nodes_first = false,
                                      const std::vector<SampleHint>& hints = {});

// The same, each sample written in place into the caller's storage: sink(i) is where target i's
// sample and counters go, both value-initialised (a sweep's results hold them: no second copy of
// every sample).
struct SampleSlot {
  PortSample& sample;
  mad::CounterValues& values;
};
using SampleSink = std::function<SampleSlot(std::size_t)>;
void sample_ports_into(mad::MadEngine& engine, const std::vector<PortTarget>& targets,
                       const KnownCapabilities& known, const mad::EngineOptions& options,
                       bool probe_nodes_first, const std::vector<SampleHint>& hints,
                       const SampleSink& sink);

double to_epoch_seconds(std::chrono::system_clock::time_point time);

}  // namespace ibpm::poll
