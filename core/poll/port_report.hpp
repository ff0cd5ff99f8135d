// SPDX-License-Identifier: MIT
// A polled port as Nagios sees it: its state, one line naming both cable ends, the link and
// every rate that crossed a threshold, and perfdata for every rate.
//
// States: a port that is not active is CRITICAL; a link below the width or speed the topology
// saw (or the port enables) is WARNING; an unreachable port or an unreadable state file is
// UNKNOWN; the first run has nothing to compare with ("collecting baseline", OK by default);
// otherwise the worst threshold crossed.
#pragma once

#include <string>
#include <vector>

#include "link_quality/ber_windows.hpp"
#include "link_quality/flapping.hpp"
#include "plugin/result.hpp"
#include "poll/port_result.hpp"
#include "thresholds/rate_thresholds.hpp"

namespace ibpm::poll {

struct ReportSettings {
  const thresholds::RateThresholds* thresholds = nullptr;
  plugin::State first_run = plugin::State::ok;  // state while collecting the baseline
  plugin::State port_down = plugin::State::critical;
  plugin::State degraded = plugin::State::warning;
  link_quality::BerSettings ber;
  link_quality::FlapSettings flap;
  // Judge flapping per port (a port or node check). A sweep judges it per cable instead, once
  // for both ends (flap_subcheck), and sets this to false.
  bool flap_per_port = true;
  // Say of every BER window not yet covered how much history it has (a port or node check); a
  // sweep says it only of windows that saw errors.
  bool ber_coverage_notes = false;
  // Build an OK port's line and notes (a port or node check shows them). A sweep shows no OK
  // port and sets this to false: such a port's subcheck then holds its state alone.
  bool describe_ok_ports = true;
};

// A counter's rate as reports and thresholds give it: data counters in octets per second (the
// PMA counts 4-octet words), the others as counted.
double reported_rate(counters::Counter counter, double per_second);

// "12/s", "3.5/min", "40/h": the largest unit in which the rate is at least 1.
std::string format_rate(double per_second);

// "leaf01[3] <-> spine02[1]" (one end when the topology shows no cable).
std::string cable_name(const PortTarget& target);

// The active link is below the width or speed the topology saw (or the best width the port
// enables): what makes a port "link degraded".
bool link_degraded(const PortTarget& target, const LinkState& live);

// The port's subcheck: state, one-line output, one child per alerting metric.
plugin::Subcheck port_subcheck(const PortResult& result, const ReportSettings& settings);

// Why a port's subcheck is in `state`: its children of that state, joined by ", "
// ("symbol_errors 12/s > 10/s"), else its line without the cable ("unreachable at LID 23 (...)",
// "Down"). `from_children` says which of the two it is.
struct PortReason {
  std::string text;
  bool from_children = false;
};
PortReason port_reason(const plugin::Subcheck& check, plugin::State state,
                       const std::string& cable);

// Perfdata of every rate (per second; data in octets per second), utilization and XmitWait %,
// with warn/crit from the thresholds. `prefix` goes before each label ("p3_" for a node check).
std::vector<plugin::Perfdata> port_perfdata(const PortResult& result,
                                            const thresholds::RateThresholds& thresholds,
                                            const std::string& prefix = "",
                                            const link_quality::BerSettings& ber = {});

// A cable flapping, from its ends' error histories (`far` null: one end polled), as a child of
// the near end's subcheck, in the cable's tier's state; nullopt when it does not flap. A far end
// that did not answer, or came back with its counters reset (a reboot), is the node going away,
// not a flap: nullopt too.
std::optional<plugin::Subcheck> flap_subcheck(const PortResult& near, const PortResult* far,
                                              const link_quality::FlapSettings& settings);

// The port's bit error ratios over the windows of `ber`, from its error history and live link.
std::vector<link_quality::BerWindow> port_ber(const PortResult& result,
                                              const link_quality::BerSettings& ber);

}  // namespace ibpm::poll
