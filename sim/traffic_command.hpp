// SPDX-License-Identifier: MIT
// `ibpm-sim traffic`: sets the data counters of a running simulation to what the flows of a
// flows file (flows_file.hpp) have sent since they started, so that checks sweeping the fabric
// afterwards measure exactly those rates. Run it before each sweep.
//
// Time: counters are rate x seconds since the start. The first call for a flows file records
// the start in SIMDIR/traffic, one second back (so the first counters hold a second of traffic
// and never fall below what ibsim's own MADs put there); later calls use now - start. An explicit
// `elapsed` overrides that and records nothing; `restart` records a new start. A new flows file
// (another path) starts anew as well. Counters are *set*, not added: a (re)start makes them fall,
// which a check reads as counters cleared by someone else.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace ibpm::sim {

//
// Congestion: the flows are cut by the congestion model (congestion_model.hpp) where a port
// cannot carry what they ask; the data counters hold the delivered rates, PortXmitWait the time
// each port waited for credits. Flows follow shortest paths, or with `lft_file` the forwarding
// tables of an LFT file (ibpm-routes' routes.lft) traced on the fabric as discovered.
struct TrafficOptions {
  std::filesystem::path sim_dir;  // the folder given to `ibpm-sim start`
  std::filesystem::path flows_file;
  std::optional<double> elapsed;  // seconds of traffic; else the start recorded in sim_dir
  bool restart = false;           // record a new start now
  std::optional<std::filesystem::path> lft_file;    // route along these tables
  std::optional<std::filesystem::path> truth_file;  // write the model's truth here (JSON)
  std::optional<double> xmit_wait_tick_ns;          // PortXmitWait tick, as --xmit-wait-tick
};

// SIMDIR/traffic: which flows file, and since when (seconds since the epoch).
struct TrafficStart {
  std::string flows_file;  // absolute path
  double start = 0;
};
std::optional<TrafficStart> read_traffic_start(const std::filesystem::path& sim_dir);
void write_traffic_start(const std::filesystem::path& sim_dir, const TrafficStart& start);

// The seconds of traffic to set at `now` (seconds since the epoch) for a flows file, recording a
// start in sim_dir when there is none for that file or `restart` asks for one.
struct TrafficTime {
  double seconds = 0;
  bool started = false;  // this call recorded the start
};
TrafficTime traffic_time(const std::filesystem::path& sim_dir, const std::string& flows_file,
                         bool restart, double now);

struct TrafficReport {
  std::size_t flows = 0;
  std::size_t ports = 0;         // ports whose data counters were set
  double octets_per_second = 0;  // all flows together
  double seconds = 0;
  bool started = false;
  bool explicit_elapsed = false;
  double delivered_octets_per_second = 0;  // all flows together, after the cuts
  std::size_t cut_flows = 0;
  std::size_t roots = 0;
  std::size_t victims = 0;
};

// Reads the simulation's net file (SIMDIR/fabric.net) and the flows file, and sets the counters.
// Throws FlowsFileError for a bad flows file, SimulationError when there is no simulation in
// sim_dir or ibsim refuses the commands, std::runtime_error for an unreadable net file, LFT file
// or truth file, a failed discovery, or a flow the tables do not route.
TrafficReport set_traffic(const TrafficOptions& options);

// One line: "12 flows, 8.4 GB/s in all, 30.0 s since the start: data counters of 44 ports set",
// and where flows were cut: "; 3 flows cut (26.0 GB/s delivered in all), 1 root, 6 victims".
std::string describe(const TrafficReport& report);

}  // namespace ibpm::sim
