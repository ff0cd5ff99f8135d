// SPDX-License-Identifier: MIT
// A sweep in the Prometheus text exposition format (version 0.0.4), for node_exporter's textfile
// collector: the file is replaced whole after every sweep, and node_exporter serves it as is.
//
// Per port, labelled node_guid, port, node (the NodeDescription), remote_guid, remote_port and
// remote (the far end's description; empty when the topology shows no cable):
//   ibpm_port_up                                1 when the counters were read, else 0
//   ibpm_port_<counter>_total                   the counter as read (counter); data in bytes:
//                                               ibpm_port_xmit_data_bytes_total
//   ibpm_port_<counter>_per_second              the sweep's rate (gauge; data in bytes/s), once
//                                               the port has a baseline
//   ibpm_port_link_state                        PortInfo PortState: 1 Down .. 4 Active
//   ibpm_port_link_width_lanes                  active width (1, 2, 4, 8, 12)
//   ibpm_port_link_speed_bytes_per_second       active speed: data rate of one lane
// and the sweep's own figures, labelled scope ("fabric" or "shard-K-of-N"):
//   ibpm_sweep_start_time_seconds, ibpm_sweep_duration_seconds, ibpm_sweep_mads_sent,
//   ibpm_sweep_mad_retries, ibpm_sweep_ports, ibpm_sweep_ports_read, ibpm_sweep_ports_unreachable,
//   ibpm_sweep_store_checked.
//
// No sample carries a timestamp (node_exporter refuses them). Label values are valid UTF-8 with
// backslash, double quote and line feed escaped as the format says and every other control
// character replaced by a space: a hostile description stays inside its label. The counters
// exported (raw and rate) can be limited to an allow-list, which bounds the series per port.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "counters/counter.hpp"
#include "fabric/fabric.hpp"
#include "poll/port_poller.hpp"

namespace ibpm::products {

// A label value as the exposition format quotes it (without the quotes).
std::string openmetrics_label_value(std::string_view text);

struct SweepFigures {
  std::string scope = "fabric";
  double started = 0;   // epoch seconds
  double duration = 0;  // seconds
  std::size_t mads_sent = 0;
  std::size_t mad_retries = 0;
  std::size_t ports = 0;  // ports the sweep set out to read
  std::size_t ports_read = 0;
  std::size_t ports_unreachable = 0;
  std::size_t store_checked = 0;  // ports checked against a central store's last updates
};

// Every counter.
constexpr counters::CounterMask kAllCounters =
    (counters::CounterMask{1} << counters::kCounterCount) - 1;

// "symbol_errors,xmit_data" (counter keys, as perfdata names them) to a mask; "all" is every
// counter. Throws std::invalid_argument naming an unknown key.
counters::CounterMask parse_counter_list(std::string_view list);

// The whole file. `fabric` gives the nodes' descriptions (by GUID).
std::string openmetrics_text(const std::vector<poll::PortResult>& results, const Fabric& fabric,
                             const SweepFigures& figures,
                             counters::CounterMask counters = kAllCounters);

// openmetrics_text replaced whole at `path` (temporary beside it, then rename). Throws
// std::runtime_error naming the path.
void write_openmetrics(const std::string& path, const std::vector<poll::PortResult>& results,
                       const Fabric& fabric, const SweepFigures& figures,
                       counters::CounterMask counters = kAllCounters);

}  // namespace ibpm::products
