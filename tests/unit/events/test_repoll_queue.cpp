// SPDX-License-Identifier: MIT
// The listener's queue of switches to re-poll: a LID named by many traps is re-polled once, one
// re-poll at a time and a minimum interval apart, at most max_nodes a re-poll, and a storm past
// the budget is dropped and counted.
#include <catch2/catch.hpp>
#include <chrono>

#include "repoll_queue.hpp"

using ibpm::events::RepollLimits;
using ibpm::events::RepollQueue;
using namespace std::chrono_literals;

namespace {

const RepollQueue::Clock::time_point t0 = RepollQueue::Clock::time_point() + 1000s;

}  // namespace

TEST_CASE("repoll queue: traps naming the same LID wait as one") {
  RepollQueue queue(RepollLimits{});
  CHECK_FALSE(queue.next_start());  // nothing waits: the loop sleeps until a trap
  for (int i = 0; i < 20; ++i) CHECK(queue.add(5, t0));
  CHECK(queue.add(7, t0));
  CHECK(queue.waiting() == 2);
  CHECK(queue.counts().coalesced == 19);
  CHECK(queue.start(t0) == std::vector<unsigned>{5, 7});
  CHECK(queue.counts().runs == 1);
  CHECK(queue.counts().polled == 2);
}

TEST_CASE("repoll queue: one re-poll in flight, the next a minimum interval after the last start") {
  RepollQueue queue(RepollLimits{.min_interval = 1000ms});
  queue.add(5, t0);
  REQUIRE(queue.start(t0) == std::vector<unsigned>{5});
  queue.add(5, t0 + 10ms);          // the switch trapped again while it is re-polled
  CHECK_FALSE(queue.next_start());  // in flight: nothing starts
  CHECK(queue.start(t0 + 2s).empty());
  queue.finished();
  // Finished after 100 ms: the next may start 1 s after the last start, not before.
  CHECK(queue.next_start() == t0 + 1000ms);
  CHECK(queue.start(t0 + 500ms).empty());
  CHECK(queue.start(t0 + 1000ms) == std::vector<unsigned>{5});
}

TEST_CASE("repoll queue: at most max_nodes a re-poll, the rest in the order named") {
  RepollQueue queue(RepollLimits{.min_interval = 0ms, .max_nodes = 2});
  for (unsigned lid : {9u, 3u, 7u, 1u, 5u}) queue.add(lid, t0);
  CHECK(queue.start(t0) == std::vector<unsigned>{9, 3});
  queue.finished();
  CHECK(queue.start(t0) == std::vector<unsigned>{7, 1});
  queue.finished();
  CHECK(queue.start(t0) == std::vector<unsigned>{5});
  queue.finished();
  CHECK_FALSE(queue.next_start());
}

TEST_CASE("repoll queue: a storm past the budget is dropped and counted, the window moves on") {
  RepollQueue queue(
      RepollLimits{.min_interval = 0ms, .max_nodes = 100, .budget = 3, .budget_window = 60s});
  CHECK(queue.add(1, t0));
  CHECK(queue.add(2, t0));
  CHECK(queue.add(3, t0));
  CHECK_FALSE(queue.add(4, t0));  // 3 waiting: the budget is spoken for
  CHECK(queue.add(2, t0));        // one already waiting costs nothing more
  REQUIRE(queue.start(t0).size() == 3);
  queue.finished();
  CHECK_FALSE(queue.add(4, t0 + 30s));  // 3 re-polled within the minute
  CHECK(queue.counts().dropped == 2);
  CHECK(queue.add(4, t0 + 61s));  // the window has moved past them
  CHECK(queue.start(t0 + 61s) == std::vector<unsigned>{4});
}
