// SPDX-License-Identifier: MIT

#include "poll/poll_options.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "base/number.hpp"
#include "mad/mad_engine.hpp"
#include "mad/record_rotation.hpp"
#include "plugin/add_option.hpp"
#include "plugin/options.hpp"
#include "poll/port_poller.hpp"
#include "state/port_store.hpp"

namespace ibpm::poll {

mad::EngineOptions MadOptions::engine() const {
  mad::EngineOptions engine;
  engine.window = window;
  engine.backoff = {mad::Milliseconds(mad_timeout_ms), mad_retries};
  return engine;
}

void add_mad_options(CLI::App& app, MadOptions& options, const std::string& group) {
  // Named apart from the analyzers' --window (seconds of history); --window stays accepted here,
  // as Nagios and Icinga configurations written before pass it.
  plugin::add_option(app, "--mads-in-flight,--window", options.window,
                     "MAD queries in flight at most (--window is its older name)")
      .in_range(1, 4096)
      .show_default()
      .group(group);
  plugin::add_option(app, "--mad-timeout", options.mad_timeout_ms,
                     "Milliseconds the first try of a query waits; retries wait longer (randomized "
                     "exponential backoff); all tries of a query within --mad-timeout x "
                     "--mad-retries, and within -t")
      .in_range(1, 60000)
      .show_default()
      .group(group);
  plugin::add_option(app, "--mad-retries", options.mad_retries, "Retries of a query that timed out")
      .in_range(0, 20)
      .show_default()
      .group(group);
}

namespace {

// The link-quality options: the bit error ratios' windows and confidence, and flapping cables.
void add_link_quality_options(CLI::App& app, PollOptions& options) {
  const std::string quality = "Link quality";
  plugin::add_option(app, "--ber-windows", options.ber.windows,
                     "Seconds of the windows the bit error ratios (symbol_ber, rcv_errors_ber) are "
                     "judged over, comma-separated; a window needs that much history first")
      .delimiter(',')
      .in_range(10.0, 86400.0)
      .show_default("720,7500")
      .type_name("SECONDS,...")
      .group(quality);
  plugin::add_option(app, "--ber-confidence", options.ber.confidence,
                     "Confidence of the bound a BER threshold is compared with: an alert means the "
                     "ratio is above the threshold with this confidence")
      .in_range(0.5, 0.9999)
      .show_default()
      .group(quality);
  plugin::add_option(app, "--flap-count", options.flap.count,
                     "A cable flaps when its link went down this many times within --flap-window")
      .in_range(1, 1000)
      .show_default()
      .group(quality);
  plugin::add_option(app, "--flap-window", options.flap.window,
                     "Seconds the downs of a flap fall within")
      .in_range(60.0, 7.0 * 86400)
      .show_default()
      .group(quality);
  plugin::add_option(app, "--flap-recovery", options.flap.recovery,
                     "Seconds a flapping cable must stay clean before the state clears")
      .in_range(0.0, 7.0 * 86400)
      .show_default()
      .group(quality);
  const auto state_option = [&](const std::string& name, plugin::State& target,
                                const std::string& help) {
    plugin::add_state_option(app, name, target,
                             {plugin::State::ok, plugin::State::warning, plugin::State::critical},
                             help)
        .group(quality);
  };
  state_option("--flap-switch-state", options.flap.between_switches,
               "State of a flapping cable between two switches");
  state_option("--flap-host-state", options.flap.to_host,
               "State of a flapping cable to a host (or any non-switch)");
}

}  // namespace

void add_recording_options(CLI::App& app, plugin::FabricOptions& options, ReplayTopology topology) {
  const std::string group = "Recording";
  const plugin::OptionRef record =
      plugin::add_option(app, "--record", options.record,
                         "Append every MAD sent and every answer received, with their times, to "
                         "FILE: a pcap file of InfiniBand packets (ERF records, as ibdump writes) "
                         "that Wireshark and tshark decode, and --replay reads")
          .type_name("FILE")
          .group(group);
  plugin::add_option_function(
      app, "--record-max-size",
      [&options](const std::string& text) {
        options.record_max_size = mad::parse_record_size(text);
      },
      "Rotate the --record file when a run starts and it holds SIZE or more (500M, 2G): it "
      "becomes FILE.1, FILE.1 becomes FILE.2 and so on, each file holding whole runs")
      .type_name("SIZE")
      .group(group)
      .needs(record);
  plugin::add_option_function(
      app, "--record-max-age",
      [&options](const std::string& text) { options.record_max_age = mad::parse_record_age(text); },
      "Rotate the --record file when a run starts and its first packet is DURATION old or "
      "older (30m, 6h, 2d), as --record-max-size does; with both, whichever comes first")
      .type_name("DURATION")
      .group(group)
      .needs(record);
  plugin::add_option(app, "--record-keep", options.record_keep,
                     "Rotated recordings kept beside the --record file (FILE.1 ... FILE.N, the "
                     "oldest removed)")
      .in_range(0u, 1000u)
      .show_default()
      .group(group);
  std::string where;
  switch (topology) {
    case ReplayTopology::from_cache_or_state:
      where =
          "; the topology comes from --cache or the state directory, else from the discovery "
          "the recorded run made (a discovery is recorded with the run's MADs)";
      break;
    case ReplayTopology::none:
      where = "; the SM LID is the recording's (no HCA is opened)";
      break;
    case ReplayTopology::refresh:
      where =
          "; a --refresh without --cache records and replays its fabric discovery too (else the "
          "topology comes from --cache or the state directory)";
      break;
    case ReplayTopology::discovery:
      where =
          "; the fabric discovery (libibnetdisc's directed-route SMPs) is recorded and "
          "replayed too (no HCA is opened; not with --cache, which is not discovered)";
      break;
  }
  const std::string replay_help =
      "Take the fabric's answers from FILE (a --record recording) instead of the fabric, at the "
      "recording's times" +
      where;
  plugin::add_option(app, "--replay", options.replay, replay_help)
      .type_name("FILE")
      .group(group)
      .excludes(record);
}

mad::RecordRotation record_rotation(const plugin::FabricOptions& options) {
  return {.max_size = options.record_max_size,
          .keep = options.record_keep,
          .max_age = options.record_max_age};
}

void add_poll_options(CLI::App& app, PollOptions& options) {
  add_recording_options(app, options.fabric);
  const std::string state = "State";
  plugin::add_rrdcached_option(
      app, options.rrdcached, "the RRD writes go through it (default: $RRDCACHED_ADDRESS when set)")
      .group(state);
  plugin::add_option(app, "--rrd-step", options.rrd_step,
                     "Seconds per row of newly created RRD files")
      .in_range(1, 3600)
      .show_default()
      .group(state);
  plugin::add_option(app, "--rrd-full-hours", options.rrd_history.full_hours,
                     "Hours of history at full resolution in newly created RRD files (at most 1440 "
                     "rows)")
      .in_range(1, 24 * 366)
      .show_default()
      .group(state);
  plugin::add_option(app, "--rrd-hourly-days", options.rrd_history.hourly_days,
                     "Days of hourly averages and peaks in newly created RRD files (0: none)")
      .in_range(0, 3660)
      .show_default()
      .group(state);
  plugin::add_option(app, "--rrd-daily-days", options.rrd_history.daily_days,
                     "Days of daily averages and peaks in newly created RRD files (0: none)")
      .in_range(0, 36600)
      .show_default()
      .group(state);
  plugin::add_state_option(app, "--first-run", options.first_run,
                           {plugin::State::ok, plugin::State::unknown},
                           "State of a run with no previous sample to compare with: ok or unknown")
      .group(state);
  plugin::add_option(app, "--reset-counters", options.reset_percent,
                     "Clear error counters (and 32-bit data counters) at or above this % of their "
                     "maximum, e.g. 75; default: never")
      .in_range(1.0, 100.0)
      .type_name("PERCENT")
      .group(state);
  const std::string mad = "MAD";
  add_mad_options(app, options.mad, mad);
  plugin::add_xmit_wait_tick_option(app, options.xmit_wait_tick_ns).group(mad);
  thresholds::add_rate_threshold_options(app, options.thresholds);
  add_link_quality_options(app, options);
}

PollSettings poll_settings(const PollOptions& options, const plugin::CommonOptions& common,
                           std::chrono::steady_clock::time_point start) {
  PollSettings settings;
  settings.engine = options.mad.engine();
  // Leave part of -t for writing the state and the output: a tenth, but at least a quarter up to
  // one second (with -t 2, a tenth is too little for a loaded collector to finish in).
  if (common.timeout > 0) {
    const std::int64_t total_ms = static_cast<std::int64_t>(common.timeout) * 1000;
    const std::int64_t reserve_ms =
        std::max(total_ms / 10, std::min<std::int64_t>(1000, total_ms / 4));
    settings.engine.deadline = start + std::chrono::milliseconds(total_ms - reserve_ms);
    settings.store_deadline = start + std::chrono::milliseconds(total_ms - reserve_ms / 2);
    settings.store_read_timeout =
        std::chrono::milliseconds(std::max<std::int64_t>(total_ms / 4, 1));
  }
  if (options.reset_percent) settings.reset_fraction = *options.reset_percent / 100.0;
  if (options.xmit_wait_tick_ns) settings.xmit_wait_tick = *options.xmit_wait_tick_ns * 1e-9;
  settings.error_history_seconds = std::max(options.ber.longest(), options.flap.history_needed());
  return settings;
}

state::StoreOptions store_options(const PollOptions& options) {
  state::StoreOptions store;
  store.state_dir = options.fabric.state_dir;
  store.rrdcached = options.rrdcached;
  store.layout = options.rrd_history;
  store.layout.step = std::chrono::seconds(options.rrd_step);
  return store;
}

std::string describe(const mad::EngineStats& stats) {
  std::string text = "MADs: " + std::to_string(stats.sent) + " sent, " +
                     std::to_string(stats.retries) + " retries, " + std::to_string(stats.ignored) +
                     " ignored replies";
  if (stats.seconds > 0)
    text += "; the engine ran " + base::format_fixed(stats.seconds, 3) + " s (" +
            std::to_string(std::llround(static_cast<double>(stats.sent) / stats.seconds)) +
            " MADs/s)";
  return text;
}

void accumulate(mad::EngineStats& a, const mad::EngineStats& b) {
  a.sent += b.sent;
  a.retries += b.retries;
  a.ignored += b.ignored;
  a.seconds += b.seconds;
}

}  // namespace ibpm::poll
