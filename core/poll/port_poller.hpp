// One polling run over a set of ports, state included: lock the nodes' state, read what the
// previous run left, sample the ports, turn the two samples into rates, clear counters close to
// their maximum when asked, and write the new samples. The checks and the sweep share it.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "mad/mad_engine.hpp"
#include "poll/port_rates.hpp"
#include "poll/port_sampler.hpp"
#include "poll/target.hpp"
#include "state/port_store.hpp"

namespace ibpm::poll {

struct PollSettings {
  mad::EngineOptions engine;                 // window, backoff and the deadline of the run
  std::optional<double> reset_fraction;      // clear counters at or above this share of max
  std::optional<double> xmit_wait_tick;      // seconds per PortXmitWait tick (default: word time)
  bool write_state = true;
  bool probe_nodes_first = false;            // see sample_ports
  std::vector<Guid> known_nodes;             // the topology's nodes: lets node locks merge
};

struct PortResult {
  PortTarget target;
  PortSample sample;
  std::optional<state::PortRecord> previous;  // what the last run left
  state::PortRecord record;                   // this run's sample, as written
  PortRates rates;
  CounterMask cleared = 0;                    // counters this run reset
  std::string state_error;                    // reading or writing the RRD failed: why
};

std::vector<PortResult> poll_ports(mad::MadEngine& engine, const state::PortStore& store,
                                   const std::vector<PortTarget>& targets,
                                   const PollSettings& settings);

// The link's data rate from the live PortInfo (nullopt when the port is not active).
std::optional<double> live_capacity(const PortSample& sample);

}  // namespace ibpm::poll
