// SPDX-License-Identifier: MIT
// One port's result of a polling run (poll/port_poller.hpp): its sample, its rates, its state in
// the store and its error history. What every output (reports, perfdata, OpenMetrics, CSV, the
// events file) reads, apart from the engine and the store that made it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>

#include "base/rare_text.hpp"
#include "mad/pma_capabilities.hpp"
#include "poll/port_rates.hpp"
#include "poll/port_sample.hpp"
#include "poll/target.hpp"
#include "state/error_history.hpp"
#include "state/port_record.hpp"

namespace ibpm::poll {

// The sample a result shows when its port gave none (all counters unread).
const std::shared_ptr<const state::PortRecord>& no_sample();

struct PortResult {
  PortResult() : rates() {}

  // The port polled: an entry of the run's targets, which every result of the run shares (a copy
  // per result would cost 112 bytes and its names).
  std::shared_ptr<const PortTarget> target;
  PortSample sample;
  // This run's sample, as written: the entry of the run's sample record (PendingRecord), which
  // the results share, so that a port's sample is held once (192 bytes) and outlives the run with
  // them; no_sample() when the port did not answer, a copy of its own when it was not written.
  std::shared_ptr<const state::PortRecord> record = no_sample();
  // Written after it when this run cleared counters (rare: shared, so that a result without one
  // does not carry room for a whole record).
  std::shared_ptr<const state::PortRecord> after_reset;
  // The counters as read, until the run computes the rates from them; the rates after that. They
  // take turns in the same room (both for the whole run would cost 144 bytes more a port).
  union {
    PortRates rates;
    mad::CounterValues readings;
  };
  counters::CounterMask cleared = 0;  // counters this run reset
  // The store's file held an update without a sample (not one a collector writes): named in
  // state_error, and this run's sample written over it all the same.
  bool blank_in_store = false;
  // The store failed as a whole (PollRun::store): state_error says it for this port's file, but
  // the port is judged from its counters and sample record as when the store answers.
  bool unstored = false;
  std::optional<std::uint8_t> reported;  // the state last reported (from the record)
  // A re-poll read only the port's PortInfo, and found its link as the last run that read its
  // counters saw it, reported OK (poll/port_info_first.hpp): judged on that PortInfo, its rates
  // as then (a baseline's empty rates stand in), with no sample of its own (no_sample()).
  bool carried = false;
  base::RareText state_error;  // reading or writing the RRD failed: why
  // The previous sample was dated this many seconds after this run's (the clock stepped back
  // since): no rate from it, this run's sample is a new baseline. 0: it was not.
  double clock_back = 0;
  state::ErrorHistory errors;  // physical-layer errors up to this sample

  // The port's own state file failed (not the whole store): it is UNKNOWN, naming the file.
  bool state_failed() const { return !state_error.empty() && !unstored; }
};
static_assert(std::is_trivially_copyable_v<PortRates> &&
                  std::is_trivially_copyable_v<mad::CounterValues>,
              "PortResult's union copies them as bytes");

}  // namespace ibpm::poll
