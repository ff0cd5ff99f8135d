// SPDX-License-Identifier: MIT
// One polling run over a set of ports, state included: lock the nodes' state, read what the
// previous run left, sample the ports, turn the two samples into rates, clear counters close to
// their maximum when asked, and write the new samples. The checks and the sweep share it.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "base/rare_text.hpp"
#include "mad/mad_engine.hpp"
#include "poll/pending_record.hpp"
#include "poll/port_rates.hpp"
#include "poll/port_result.hpp"
#include "poll/port_sampler.hpp"
#include "poll/store_trouble.hpp"
#include "poll/target.hpp"
#include "state/port_store.hpp"
#include "state/sample_record.hpp"

namespace ibpm::poll {

struct PollSettings {
  mad::EngineOptions engine;  // window, backoff and the deadline of the run
  // How long the exchanges with rrdcached may take: the reads before polling (a store that hangs
  // must leave the MADs their time) and the writes after it, up to the run's own deadline.
  std::chrono::milliseconds store_read_timeout = std::chrono::seconds(30);
  std::optional<std::chrono::steady_clock::time_point> store_deadline;
  std::optional<double> reset_fraction;  // clear counters at or above this share of max
  std::optional<double> xmit_wait_tick;  // seconds per PortXmitWait tick (default: word time)
  bool write_state = true;
  // false: the RRD files are not written (a re-poll of a few nodes beside the sweeps, whose
  // history they are): the record alone keeps the samples, and keeps the ports of other runs.
  bool write_history = true;
  bool probe_nodes_first = false;  // see sample_ports
  std::vector<Guid> known_nodes;   // the topology's nodes: lets node locks merge
  // The run's sample record (state/sample_record.hpp): STATE_DIR/samples/NAME.rec. Empty: the
  // previous samples come from the RRD files.
  std::string record_name;
  // PortInfo of a port whose counters show no link change is read again every this many runs
  // (spread over the runs); 1: every run.
  unsigned port_info_every = 1;
  // A central store's check of each port's last update (see StoreCheck in port_poller.cpp) asked
  // every this many runs, spread over the runs; 1: every run.
  unsigned store_check_every = 1;
  // A re-poll of the nodes a trap named: every port's PortInfo first, and the counters only of
  // the ports whose link changed or that were not reported OK (poll/port_info_first.hpp).
  bool port_info_first = false;
  // With port_info_first: the sweeps' sample record (STATE_DIR/samples/NAME.rec), what the
  // ports the run's own record lacks were last seen as. Empty: none.
  std::string sweep_record_name;
  // The run's clock (epoch seconds) where it is not the system's: a replay's is the recording's,
  // against which the previous samples are fresh or aged (a recording of last night replayed
  // into a state directory goes on from its own last run). nullopt: the system clock.
  std::optional<double> clock;
  // How far back each port's error history reaches (the longest BER window), seconds.
  double error_history_seconds = 7500;
};

struct PollRun {
  std::vector<PortResult> results;  // one per target, in target order
  std::vector<std::string> notes;   // the sample record ignored: why
  std::size_t from_rrd = 0;         // previous samples read from RRD files (not in the record)
  std::size_t store_checked = 0;    // ports whose last update the central store was asked
  StoreTrouble store;               // the store's failure and refusals, said once for the run
  PendingRecord pending;
};

// Locks the targets' nodes, takes the previous samples (the record, else the RRD files), polls,
// computes rates, clears counters when asked and writes the RRDs. The record is saved by
// save_record(), which also releases the locks. The results keep the targets.
PollRun poll_ports(mad::MadEngine& engine, const state::PortStore& store,
                   std::vector<PortTarget> targets, const PollSettings& settings);

// Saves the run's record (every answered port's new sample, the others' last one, each with its
// `reported` state) and releases the node locks. Returns why the record could not be written.
// A result whose sample was not written, or was followed by a reset, gets a copy of its own
// before the record changes under it.
std::optional<std::string> save_record(PendingRecord& pending, std::vector<PortResult>& results);

// The link's data rate from the live PortInfo (nullopt when the port is not active).
std::optional<double> live_capacity(const PortSample& sample);

}  // namespace ibpm::poll
