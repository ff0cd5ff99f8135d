// SPDX-License-Identifier: MIT
// Command-line options shared by the check_ib_* commands, so they all use one table.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "plugin/add_option.hpp"
#include "plugin/range.hpp"

namespace ibpm::plugin {

struct FabricOptions {
  std::string ca;                           // -C/--Ca: HCA name, empty = the first one
  int port = 0;                             // -P/--Port: HCA port, 0 = the first active one
  std::string cache;                        // --cache: libibnetdisc cache file to read
  std::string node_name_map;                // --node-name-map
  std::string state_dir = "/var/lib/ibpm";  // --state-dir: where checks keep state between runs
  std::string record;                       // --record: append every MAD to this pcap file
  std::string replay;                       // --replay: answers from this recording, not the fabric
  std::uint64_t record_max_size = 0;        // --record-max-size: rotate it at this size, 0: never
  unsigned record_keep = 5;                 // --record-keep: rotated files kept
  std::chrono::seconds record_max_age{0};   // --record-max-age: rotate it at this age, 0: never
};

// -C/--Ca CA and -P/--Port PORT (0..254) in help group `group`: the local HCA port the MADs go
// out of.
void add_local_port_options(CLI::App& app, std::string& ca, int& port, const std::string& group);
// --node-name-map FILE in help group `group`.
void add_node_name_map_option(CLI::App& app, std::string& file, const std::string& group);
// --state-dir DIR (its default shown) in help group `group`.
void add_state_dir_option(CLI::App& app, std::string& dir, const std::string& group);

// --jobs FILE, the jobs file every command reads the same way (see core/jobs); `use` says what the
// command does with it. The file is checked when it is read, not here: a check whose jobs file is
// missing still reports its ports (with a note), a tool fails with the reader's error.
OptionRef add_jobs_option(CLI::App& app, std::string& file, const std::string& use);
// --rrdcached ADDR; `use` says what goes through the daemon.
OptionRef add_rrdcached_option(CLI::App& app, std::string& address, const std::string& use);

// --top N (0: all; never negative, which would wrap around to all); `use` says what is listed.
OptionRef add_top_option(CLI::App& app, std::size_t& top, const std::string& use);
// --sort KEY, one of `keys` (its default shown); `use` says what each key sorts by.
OptionRef add_sort_option(CLI::App& app, std::string& sort, const std::vector<std::string>& keys,
                          const std::string& use);
// --xmit-wait-tick NS: nanoseconds per PortXmitWait tick (above 0, else a usage error naming the
// option); unset, one tick is the time the link takes to send one data word (4 octets).
// `description` replaces the analysis tools' help text.
OptionRef add_xmit_wait_tick_option(CLI::App& app, std::optional<double>& nanoseconds);
OptionRef add_xmit_wait_tick_option(CLI::App& app, std::optional<double>& nanoseconds,
                                    const std::string& description);

// -o/--output PATH: where the command writes its result; `description` says what is written.
OptionRef add_output_option(CLI::App& app, std::string& path, const std::string& description);
// -v/--verbose: a bool says whether it was given, an int how often (-vv); `description` says
// what is said.
template <class Level>
OptionRef add_verbose_flag(CLI::App& app, Level& verbose, const std::string& description);
// -t/--timeout, its default shown; `description` says what it bounds. The caller adds its range
// and type name. `names` leaves out -t where a command does not offer it.
template <class Seconds>
OptionRef add_timeout_option(CLI::App& app, Seconds& seconds, const std::string& description,
                             const std::string& names = "-t,--timeout");
// --baseline FILE: the saved topology (check_ib_topology --write-baseline) the fabric is
// compared with; `description` says what the command does with it.
OptionRef add_baseline_option(CLI::App& app, std::string& file, const std::string& description);
// --no-history: the topology alone, no RRD file read; `description` says what the command makes
// of it.
OptionRef add_no_history_flag(CLI::App& app, bool& no_history, const std::string& description);
// --summary-ports N (its default shown): the worst ports named in a check's status line.
OptionRef add_summary_ports_option(CLI::App& app, std::size_t& ports);
// --refresh: read the switches' forwarding tables over the fabric into STATE_DIR/routes.lft;
// `description` says what else it does.
OptionRef add_refresh_routes_flag(CLI::App& app, bool& refresh, const std::string& description);
// --graph-format FORMAT, one of `formats` (its default shown): the image format of the graphs.
OptionRef add_graph_format_option(CLI::App& app, std::string& format,
                                  const std::vector<std::string>& formats,
                                  const std::string& description);
// --fold MODE, one of auto, hosts, pods, none (its default shown): how a health map folds the
// fabric (viz::parse_fold_mode reads it); `description` says what each mode draws.
OptionRef add_fold_option(CLI::App& app, std::string& mode, const std::string& description);
// --delegation FILE: the delegation file (pins of switches or ports to shards, the collectors'
// HCAs); `description` says what the command does with it.
OptionRef add_delegation_option(CLI::App& app, std::string& file, const std::string& description);
// --assign MODE, even or nearest (default even): how the nodes no pin places are split among the
// shards; `assign` receives the mode's name.
OptionRef add_assign_option(CLI::App& app, std::function<void(const std::string&)> assign,
                            const std::string& description);

// Registers -C/--Ca CA, -P/--Port PORT (0..254), --cache FILE, --node-name-map FILE and
// --state-dir DIR (default /var/lib/ibpm) in a "Fabric" help group.
void add_fabric_options(CLI::App& app, FabricOptions& options);
// The same without -C/-P, for the commands that never query the fabric (the analyzers read the
// saved topology): an option that does nothing is not offered. options.ca and .port stay unset.
void add_saved_fabric_options(CLI::App& app, FabricOptions& options);

// An option taking a threshold range (see range.hpp). A malformed range is a parse
// error naming the option, so it is reported like any other usage error.
OptionRef add_range_option(CLI::App& app, const std::string& name, std::optional<Range>& target,
                           const std::string& description);

// -w/--warning RANGE and -c/--critical RANGE into thresholds.
void add_threshold_options(CLI::App& app, Thresholds& thresholds);

}  // namespace ibpm::plugin
