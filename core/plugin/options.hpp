// SPDX-License-Identifier: MIT
// Command-line options shared by the check_ib_* commands, so they all use one table.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "plugin/cli_fwd.hpp"
#include "plugin/range.hpp"

namespace ibpm::plugin {

struct FabricOptions {
  std::string ca;                           // -C/--Ca: HCA name, empty = the first one
  int port = 0;                             // -P/--Port: HCA port, 0 = the first active one
  std::string cache;                        // --cache: libibnetdisc cache file to read
  std::string node_name_map;                // --node-name-map
  std::string state_dir = "/var/lib/ibpm";  // --state-dir: where checks keep state between runs
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
CLI::Option* add_jobs_option(CLI::App& app, std::string& file, const std::string& use);
// --rrdcached ADDR; `use` says what goes through the daemon.
CLI::Option* add_rrdcached_option(CLI::App& app, std::string& address, const std::string& use);

// --top N (0: all; never negative, which would wrap around to all); `use` says what is listed.
CLI::Option* add_top_option(CLI::App& app, std::size_t& top, const std::string& use);
// --sort KEY, one of `keys` (its default shown); `use` says what each key sorts by.
CLI::Option* add_sort_option(CLI::App& app, std::string& sort, const std::vector<std::string>& keys,
                             const std::string& use);
// --xmit-wait-tick NS: nanoseconds per PortXmitWait tick (positive); unset, one tick is the time
// the link takes to send one data word (4 octets).
CLI::Option* add_xmit_wait_tick_option(CLI::App& app, std::optional<double>& nanoseconds);

// Registers -C/--Ca CA, -P/--Port PORT (0..254), --cache FILE, --node-name-map FILE and
// --state-dir DIR (default /var/lib/ibpm) in a "Fabric" help group.
void add_fabric_options(CLI::App& app, FabricOptions& options);
// The same without -C/-P, for the commands that never query the fabric (the analyzers read the
// saved topology): an option that does nothing is not offered. options.ca and .port stay unset.
void add_saved_fabric_options(CLI::App& app, FabricOptions& options);

// An option taking a threshold range (see range.hpp). A malformed range is a parse
// error naming the option, so it is reported like any other usage error.
CLI::Option* add_range_option(CLI::App& app, const std::string& name, std::optional<Range>& target,
                              const std::string& description);

// -w/--warning RANGE and -c/--critical RANGE into thresholds.
void add_threshold_options(CLI::App& app, Thresholds& thresholds);

}  // namespace ibpm::plugin
