// SPDX-License-Identifier: MIT
// Retry timing for MADs that time out: the randomized exponential backoff of the
// "MAD randomized backoff" proposal, so that thousands of pollers never retry in lockstep.
//
//   try 0            timeout
//   retry k >= 1     timeout + (511 ms << (k - 1)) - random(0..511 ms)
//                    i.e. +0..0.5 s, +0.5..1 s, +1.5..2 s, +3.5..4 s, ...
//
// All tries together stay within a total budget of timeout x retries, even when that means fewer
// tries; a caller's deadline (the plugin's -t) can cut the budget further.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <vector>

namespace ibpm::mad {

using Milliseconds = std::chrono::milliseconds;

constexpr Milliseconds kBackoffBase{511};

struct BackoffPolicy {
  Milliseconds timeout{1000};  // the bare per-try timeout
  int retries = 3;             // retries after the first try
};

// How long try `attempt` (0 = the first) waits for its answer; jitter in [0, 511] ms.
Milliseconds try_wait(const BackoffPolicy& policy, int attempt, Milliseconds jitter);

// What all tries of one query may wait together: timeout x retries (the first try alone when
// retries is 0), at most `budget` when given.
Milliseconds schedule_total(const BackoffPolicy& policy, std::optional<Milliseconds> budget);

// The wait of try `attempt` when the tries before it waited `used` of `total`: nullopt when no try
// is left (retries + 1 tries at most). The try that would overrun is shortened to what is left.
// The jitter is drawn only for a retry that goes out.
std::optional<Milliseconds> next_wait(const BackoffPolicy& policy, int attempt, Milliseconds used,
                                      Milliseconds total,
                                      const std::function<Milliseconds()>& jitter);

// Every try's wait, in order, as next_wait gives them one by one.
std::vector<Milliseconds> backoff_schedule(const BackoffPolicy& policy,
                                           const std::function<Milliseconds()>& jitter,
                                           std::optional<Milliseconds> budget = std::nullopt);

// A jitter source drawing uniformly from [0, 511] ms, seeded from std::random_device.
std::function<Milliseconds()> random_jitter();

}  // namespace ibpm::mad
