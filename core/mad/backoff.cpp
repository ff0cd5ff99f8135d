// SPDX-License-Identifier: MIT

#include "mad/backoff.hpp"

#include <algorithm>
#include <memory>
#include <random>

namespace ibpm::mad {

Milliseconds try_wait(const BackoffPolicy& policy, int attempt, Milliseconds jitter) {
  if (attempt <= 0) return policy.timeout;
  jitter = std::clamp(jitter, Milliseconds{0}, kBackoffBase);
  // Shifts beyond ~2^20 s are meaningless; the budget ends the schedule long before.
  const int shift = std::min(attempt - 1, 20);
  return policy.timeout + kBackoffBase * (1LL << shift) - jitter;
}

Milliseconds schedule_total(const BackoffPolicy& policy, std::optional<Milliseconds> budget) {
  Milliseconds total = policy.retries > 0 ? policy.timeout * policy.retries : policy.timeout;
  return budget ? std::min(total, *budget) : total;
}

std::optional<Milliseconds> next_wait(const BackoffPolicy& policy, int attempt, Milliseconds used,
                                      Milliseconds total,
                                      const std::function<Milliseconds()>& jitter) {
  if (attempt > policy.retries || used >= total) return std::nullopt;
  const Milliseconds wait = try_wait(policy, attempt, attempt == 0 ? Milliseconds{0} : jitter());
  return std::min(wait, total - used);
}

std::vector<Milliseconds> backoff_schedule(const BackoffPolicy& policy,
                                           const std::function<Milliseconds()>& jitter,
                                           std::optional<Milliseconds> budget) {
  const Milliseconds total = schedule_total(policy, budget);
  std::vector<Milliseconds> waits;
  Milliseconds used{0};
  for (int attempt = 0;; ++attempt) {
    const auto wait = next_wait(policy, attempt, used, total, jitter);
    if (!wait) break;
    waits.push_back(*wait);
    used += *wait;
  }
  return waits;
}

std::function<Milliseconds()> random_jitter() {
  auto engine = std::make_shared<std::mt19937>(std::random_device{}());
  return [engine] {
    std::uniform_int_distribution<int> draw(0, static_cast<int>(kBackoffBase.count()));
    return Milliseconds{draw(*engine)};
  };
}

}  // namespace ibpm::mad
