// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>
#include <numeric>

#include "mad/backoff.hpp"

using namespace ibpm::mad;
using namespace std::chrono_literals;

namespace {
std::function<Milliseconds()> fixed(Milliseconds value) {
  return [value] { return value; };
}
Milliseconds sum(const std::vector<Milliseconds>& waits) {
  return std::accumulate(waits.begin(), waits.end(), Milliseconds{0});
}
}  // namespace

TEST_CASE("the first try waits the bare timeout") {
  BackoffPolicy policy{1000ms, 5};
  CHECK(try_wait(policy, 0, 0ms) == 1000ms);
  CHECK(try_wait(policy, 0, 511ms) == 1000ms);
}

TEST_CASE("retry k adds 511 ms << (k-1) minus up to 511 ms / as the seed's table says") {
  BackoffPolicy policy{1000ms, 5};
  // +0..0.5 s, +0.5..1 s, +1.5..2 s, +3.5..4 s
  CHECK(try_wait(policy, 1, 511ms) == 1000ms);
  CHECK(try_wait(policy, 1, 0ms) == 1511ms);
  CHECK(try_wait(policy, 2, 511ms) == 1511ms);
  CHECK(try_wait(policy, 2, 0ms) == 2022ms);
  CHECK(try_wait(policy, 3, 511ms) == 2533ms);
  CHECK(try_wait(policy, 3, 0ms) == 3044ms);
  CHECK(try_wait(policy, 4, 511ms) == 4577ms);
  CHECK(try_wait(policy, 4, 0ms) == 5088ms);
}

TEST_CASE("jitter outside 0..511 ms is clamped") {
  BackoffPolicy policy{100ms, 3};
  CHECK(try_wait(policy, 1, 2000ms) == 100ms);
  CHECK(try_wait(policy, 1, -5ms) == 611ms);
}

TEST_CASE("the schedule stays within timeout x retries / with fewer tries if need be") {
  BackoffPolicy policy{1000ms, 3};
  auto waits = backoff_schedule(policy, fixed(0ms));
  // 1000 + 1511 = 2511, the next try would need 2022 ms: shortened to the 489 ms left.
  REQUIRE(waits.size() == 3);
  CHECK(waits[0] == 1000ms);
  CHECK(waits[1] == 1511ms);
  CHECK(waits[2] == 489ms);
  CHECK(sum(waits) == 3000ms);
}

TEST_CASE("with the most jitter the budget lets more tries through") {
  BackoffPolicy policy{1000ms, 4};  // budget 4000 ms
  auto waits = backoff_schedule(policy, fixed(511ms));
  REQUIRE(waits.size() == 4);
  CHECK(waits[0] == 1000ms);
  CHECK(waits[1] == 1000ms);
  CHECK(waits[2] == 1511ms);
  CHECK(waits[3] == 489ms);
  CHECK(sum(waits) == 4000ms);
}

TEST_CASE("no retries: one try at the bare timeout") {
  auto waits = backoff_schedule({250ms, 0}, fixed(0ms));
  REQUIRE(waits.size() == 1);
  CHECK(waits[0] == 250ms);
}

TEST_CASE("a caller's deadline cuts the schedule") {
  auto waits = backoff_schedule({1000ms, 10}, fixed(0ms), 1200ms);
  REQUIRE(waits.size() == 2);
  CHECK(waits[1] == 200ms);
  CHECK(sum(waits) == 1200ms);
}

TEST_CASE("random jitter stays within 0..511 ms and varies") {
  auto jitter = random_jitter();
  Milliseconds low = 1000ms, high = -1ms;
  for (int i = 0; i < 2000; ++i) {
    Milliseconds j = jitter();
    low = std::min(low, j);
    high = std::max(high, j);
  }
  CHECK(low >= 0ms);
  CHECK(high <= 511ms);
  CHECK(high - low > 400ms);  // 2000 draws: practically certain to spread
}
