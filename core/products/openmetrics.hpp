// SPDX-License-Identifier: MIT
// A sweep in the Prometheus text exposition format (version 0.0.4), for node_exporter's textfile
// collector: the file is replaced whole after every sweep, and node_exporter serves it as is.
//
// Counters are given as read (`_total`: Prometheus computes rates with rate()); gauges carry
// only what the sweep judges and PromQL cannot rebuild. Per port, labelled node_guid, port, node
// (the NodeDescription), level (host, leaf, spine, core, "level N"; empty when unknown), and
// the same of the far end of its cable (remote_guid, remote_port, remote, remote_level; empty
// when the topology shows no cable). Series per port at the default setting (23 at most):
//   ibpm_port_up                              1 when the counters were read, else 0
//   ibpm_port_<counter>_total                 13 counters as read: every error counter but the
//                                             two constraint counters, XmitWait, data in bytes
//                                             (ibpm_port_xmit_data_bytes_total)
//   ibpm_port_link_state                      PortInfo PortState: 1 Down .. 4 Active
//   ibpm_port_link_capacity_bytes_per_second  the active link's data rate (width x lane rate)
//   ibpm_port_check_state                     the port's state as the sweep judges it: 0 OK,
//                                             1 WARNING, 2 CRITICAL, 3 UNKNOWN
//   ibpm_port_link_degraded                   1 when below the width or speed of the baseline
//   ibpm_port_flapping                        1 when the cable flaps (at one end of each cable)
//   ibpm_port_symbol_ber, _lower_bound        the bit error ratio of the BER window whose lower
//                                             confidence bound is highest (what is judged)
//   ibpm_port_xmit_wait_ratio                 share of the interval the port waited to send:
//                                             the bandwidth lost, as a share of capacity
//   ibpm_port_congestion{role="root|victim"}  1, only for ports in a congestion tree
// The setting `all` adds the other 4 counters, ibpm_port_link_width_lanes,
// ibpm_port_link_speed_bytes_per_second and ibpm_port_rcv_errors_ber(_lower_bound): 31 at most.
// And the sweep's own figures, labelled scope ("fabric" or "shard-K-of-N"):
//   ibpm_sweep_start_time_seconds, ibpm_sweep_duration_seconds, ibpm_sweep_mads_sent,
//   ibpm_sweep_mad_retries, ibpm_sweep_ports, ibpm_sweep_ports_read, ibpm_sweep_ports_unreachable,
//   ibpm_sweep_store_checked.
//
// No sample carries a timestamp (node_exporter refuses them). Label values are valid UTF-8 with
// backslash, double quote and line feed escaped as the format says and every other control
// character replaced by a space: a hostile description stays inside its label.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "counters/counter.hpp"
#include "fabric/fabric.hpp"
#include "link_quality/ber_windows.hpp"
#include "poll/port_result.hpp"
#include "sweep/sweep_report.hpp"

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

// The counters of the default setting: all but the two constraint counters and the packet
// counters (rare, or what the data counters say already).
constexpr counters::CounterMask kDefaultCounters =
    kAllCounters & ~(counters::counter_bit(counters::Counter::xmit_constraint_errors) |
                     counters::counter_bit(counters::Counter::rcv_constraint_errors) |
                     counters::counter_bit(counters::Counter::xmit_pkts) |
                     counters::counter_bit(counters::Counter::rcv_pkts));

// "symbol_errors,xmit_data" (counter keys, as perfdata names them) to a mask; "all" is every
// counter. Throws std::invalid_argument naming an unknown key.
counters::CounterMask parse_counter_list(std::string_view list);

struct OpenMetricsSettings {
  // Every counter, the link's width and lane speed, and rcv_errors' BER (--openmetrics-series
  // all); else the default series.
  bool all = false;
  // The counters given as _total, when set (--openmetrics-counters); else the setting's.
  std::optional<counters::CounterMask> counters;
  link_quality::BerSettings ber;  // the windows the sweep judges BER over

  counters::CounterMask counter_mask() const {
    return counters ? *counters : all ? kAllCounters : kDefaultCounters;
  }
};

// The whole file, a port per verdict. `fabric` gives the nodes' descriptions and levels.
std::string openmetrics_text(const std::vector<sweep::PortVerdict>& verdicts, const Fabric& fabric,
                             const SweepFigures& figures, const OpenMetricsSettings& settings = {});

// openmetrics_text replaced whole at `path` (temporary beside it, then rename): a file that
// cannot be written leaves the previous one whole. Throws std::runtime_error naming the path.
void write_openmetrics(const std::string& path, const std::vector<sweep::PortVerdict>& verdicts,
                       const Fabric& fabric, const SweepFigures& figures,
                       const OpenMetricsSettings& settings = {});

}  // namespace ibpm::products
