// SPDX-License-Identifier: MIT
// The options every polling command shares (check_ib_port, check_ib_node, check_ib_fabric):
// the fabric, where state lives, MAD timing, counter resets and thresholds; and what they
// become for the poller and the store.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "link_quality/ber_windows.hpp"
#include "link_quality/flapping.hpp"
#include "mad/engine_options.hpp"
#include "mad/record_rotation.hpp"
#include "plugin/cli.hpp"
#include "plugin/cli_fwd.hpp"
#include "plugin/options.hpp"
#include "state/rrd_layout.hpp"
#include "state/store_options.hpp"
#include "thresholds/threshold_options.hpp"

namespace ibpm::poll {

struct PollSettings;  // poll/port_poller.hpp: the outputs that include this header need no poller

// How a run's MADs are sent: every command that talks to the fabric takes the same three options.
struct MadOptions {
  std::size_t window = 64;  // --mads-in-flight
  int mad_timeout_ms = 500;
  int mad_retries = 3;

  mad::EngineOptions engine() const;  // window and backoff (no deadline)
};

// --mads-in-flight (--window, its older name), --mad-timeout, --mad-retries in `group`.
void add_mad_options(CLI::App& app, MadOptions& options, const std::string& group);

struct PollOptions {
  plugin::FabricOptions fabric;
  thresholds::RateThresholdOptions thresholds;
  std::string rrdcached;         // empty: RRDCACHED_ADDRESS, else direct file writes
  int rrd_step = 60;             // seconds per RRD row
  state::RrdLayout rrd_history;  // archive lengths of new RRD files (its step is rrd_step)
  MadOptions mad;
  std::optional<double> reset_percent;  // clear counters at this % of their maximum
  std::optional<double> xmit_wait_tick_ns;
  plugin::State first_run = plugin::State::ok;
  link_quality::BerSettings ber;    // the windows bit error ratios are judged over
  link_quality::FlapSettings flap;  // when a cable flaps, and how bad that is
};

// Where a replaying command's topology comes from, for --replay's help.
enum class ReplayTopology {
  from_cache_or_state,  // --cache or the state directory, else the recorded run's discovery
  none,                 // the command reads no topology (check_ib_sm)
  discovery,            // the command's discovery is recorded and replayed (check_ib_topology)
  refresh,              // --refresh's discovery (without --cache) is too (ibpm-routes)
};

// --record FILE and --replay FILE (options.fabric.record, .replay) in a "Recording" group: the
// commands whose MADs go through the MAD engine.
void add_recording_options(CLI::App& app, plugin::FabricOptions& options,
                           ReplayTopology topology = ReplayTopology::from_cache_or_state);

// The rotation those options ask of the --record file.
mad::RecordRotation record_rotation(const plugin::FabricOptions& options);

// The "State" and "MAD" option groups (and the recording options) and the thresholds (the fabric
// options are separate, so each command can place its own options between them).
void add_poll_options(CLI::App& app, PollOptions& options);

// What the poller needs, for a run that started at `start` under the common -t.
PollSettings poll_settings(const PollOptions& options, const plugin::CommonOptions& common,
                           std::chrono::steady_clock::time_point start);

state::StoreOptions store_options(const PollOptions& options);

// "MADs: 5 sent, 2 retries, 0 ignored replies", for -v.
std::string describe(const mad::EngineStats& stats);

// Adds b's counts to a.
void accumulate(mad::EngineStats& a, const mad::EngineStats& b);

}  // namespace ibpm::poll
