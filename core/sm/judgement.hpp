// SPDX-License-Identifier: MIT
// The verdict on the subnet managers, as a pure function of what they answered this run and what
// the last run remembered (no MADs, no files, no clock): tested with any records at all.
//
//   CRITICAL  no master answers; more than one master; the master's ActCount has not moved for
//             --stale-after seconds ("master SM ... has sent no SMP in N s")
//   WARNING   fewer SMs answer than --expect-sms; the master is not --expect-master; a standby has
//             a higher priority than the master; the master changed since the last run (once)
//   UNKNOWN   an SM reports a state outside 0..3
//
// A remembered time later than `now` (the clock stepped back since the last run) is not trusted,
// as the sample record does not trust a sample ahead of the clock: beyond
// state::kClockToleranceSeconds the master's ActCount is followed from now (one line in the long
// output says so), and no time ahead of `now` goes into `next`.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fabric/types.hpp"
#include "plugin/result.hpp"

namespace ibpm::sm {

using Clock = std::chrono::system_clock;

// SMState as SMInfo carries it.
enum class SmState : unsigned { not_active = 0, discovering = 1, standby = 2, master = 3 };

// "not active", "discovering", "standby", "master"; "state N" out of range.
std::string state_name(unsigned code);

// One SM as this run saw it.
struct SmSeen {
  Guid port_guid = 0;
  unsigned lid = 0;
  std::string name;  // NodeDescription, untrusted
  unsigned priority = 0;
  unsigned state = 0;                      // raw SMState code
  std::optional<std::uint32_t> act_count;  // nullopt: its SMInfo was not answered this run
};

// "h1 (0x0000000000100001, LID 1)".
std::string describe(const SmSeen& sm);

// What one run leaves for the next.
struct Remembered {
  std::optional<SmSeen> master;  // the last master seen (kept while none answers)
  Clock::time_point sampled;     // when its ActCount was read
  Clock::time_point moved;       // when its ActCount was last seen to move (or it became master)
  std::vector<SmSeen> sms;       // every SM known, asked directly when the SA does not answer
};

struct Expectations {
  std::optional<unsigned> sms;  // --expect-sms
  std::string master;           // --expect-master GUID or name; empty: any
  std::chrono::seconds stale_after{60};
};

struct Judgement {
  plugin::Check check;
  Remembered next;
  std::string failover;  // the event when the master changed ("failover from A to B at T")
};

// `sa_seconds`: how long the SA query took (perfdata), nullopt when it was not answered.
Judgement judge(const std::vector<SmSeen>& sms, const std::optional<Remembered>& before,
                const Expectations& expect, Clock::time_point now,
                std::optional<double> sa_seconds);

}  // namespace ibpm::sm
