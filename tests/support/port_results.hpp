// SPDX-License-Identifier: MIT
// Polled ports built by hand (for the sweep and its products): answered, with rates over a 10 s
// interval, and variations of them.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "poll/port_poller.hpp"

namespace ibpm::test {

inline std::size_t at(counters::Counter c) { return static_cast<std::size_t>(c); }

// The result's target, to be changed: the result gets a copy of its own (results share their
// run's targets).
inline poll::PortTarget& own_target(poll::PortResult& r) {
  auto own = std::make_shared<poll::PortTarget>(r.target ? *r.target : poll::PortTarget{});
  r.target = own;
  return *own;
}

// The result's sample, to be changed: the result gets a copy of its own (results share their
// samples with their run's record).
inline state::PortRecord& own_record(poll::PortResult& r) {
  auto own = std::make_shared<state::PortRecord>(*r.record);
  r.record = own;
  return *own;
}

// An answered switch port whose every rate is 0 over 10 s, utilization 0 %.
inline poll::PortResult quiet_port(PortNumber port, std::string name = "leaf01",
                                   std::string remote = "spine01[1]") {
  poll::PortResult r;
  poll::PortTarget& target = own_target(r);
  target.node = 0x0002c90300001234;
  target.type = NodeType::sw;
  target.port = port;
  target.lid = 17;
  target.name = name + "[" + std::to_string(port) + "]";
  target.remote_name = std::move(remote);
  r.sample.answered = true;
  r.sample.time = 1714564800.25;
  state::PortRecord& record = own_record(r);
  for (std::size_t i = 0; i < record.raw.size(); ++i) record.raw[i] = 1000;
  r.rates.interval = 10;
  for (std::size_t i = 0; i < r.rates.rate.size(); ++i) r.rates.rate[i] = counters::Rate{0, false};
  r.rates.xmit_util_pct = 0;
  r.rates.rcv_util_pct = 0;
  r.rates.xmit_wait_pct = 0;
  r.rates.capacity_bps = 200e9;
  return r;
}

inline poll::PortResult with_rate(poll::PortResult r, counters::Counter counter, double per_second,
                                  bool lower_bound = false) {
  r.rates.rate[at(counter)] = counters::Rate{per_second, lower_bound};
  if (lower_bound) r.rates.saturated |= counters::counter_bit(counter);
  return r;
}

inline poll::PortResult baseline_port(PortNumber port) {
  poll::PortResult r = quiet_port(port);
  r.rates = poll::PortRates{};
  r.rates.baseline = true;
  return r;
}

inline poll::PortResult unanswered_port(PortNumber port) {
  poll::PortResult r = quiet_port(port);
  r.sample = poll::PortSample{};
  r.record = poll::no_sample();
  r.sample.error = "no answer after 4 tries";
  r.rates = poll::PortRates{};
  return r;
}

}  // namespace ibpm::test
