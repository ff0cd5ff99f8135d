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
  RepollQueue queue(RepollLimits{.settle = 0ms});  // storms apart (below)
  CHECK_FALSE(queue.next_start());                 // nothing waits: the loop sleeps until a trap
  CHECK(queue.add(5, t0) == RepollQueue::Added::queued);
  for (int i = 0; i < 19; ++i) CHECK(queue.add(5, t0) == RepollQueue::Added::coalesced);
  CHECK(queue.add(7, t0) == RepollQueue::Added::queued);
  CHECK(queue.waiting() == 2);
  CHECK(queue.counts().coalesced == 19);
  CHECK(queue.start(t0) == std::vector<unsigned>{5, 7});
  CHECK(queue.counts().runs == 1);
  CHECK(queue.counts().polled == 2);
}

TEST_CASE("repoll queue: one re-poll in flight, a switch read again a minimum interval later") {
  RepollQueue queue(RepollLimits{.min_interval = 1000ms, .settle = 0ms});
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
  RepollQueue queue(RepollLimits{
      .min_interval = 0ms, .max_nodes = 100, .budget = 3, .budget_window = 60s, .settle = 0ms});
  using Added = RepollQueue::Added;
  CHECK(queue.add(1, t0) == Added::queued);
  CHECK(queue.add(2, t0) == Added::queued);
  CHECK(queue.add(3, t0) == Added::queued);
  CHECK(queue.add(4, t0) == Added::dropped);    // 3 waiting: the budget is spoken for
  CHECK(queue.add(2, t0) == Added::coalesced);  // one already waiting costs nothing more
  REQUIRE(queue.start(t0).size() == 3);
  queue.finished();
  CHECK(queue.add(4, t0 + 30s) == Added::dropped);  // 3 re-polled within the minute
  CHECK(queue.counts().dropped == 2);
  CHECK(queue.add(4, t0 + 61s) == Added::queued);  // the window has moved past them
  CHECK(queue.start(t0 + 61s) == std::vector<unsigned>{4});
}

TEST_CASE("repoll queue: the other end of a cable goes as soon as the re-poll in flight ends") {
  RepollQueue queue(RepollLimits{.min_interval = 1000ms});
  queue.add(2, t0);
  REQUIRE(queue.start(t0) == std::vector<unsigned>{2});
  queue.add(12, t0 + 5ms);  // the far end's trap, a moment later
  CHECK_FALSE(queue.next_start());
  queue.finished();
  CHECK(queue.start(t0 + 20ms) == std::vector<unsigned>{12});
}

TEST_CASE("repoll queue: a switch in a storm is read once, when no trap named it for a while") {
  using Added = RepollQueue::Added;
  RepollQueue queue(RepollLimits{.min_interval = 1000ms, .settle = 2000ms, .storm_names = 3});
  // One change: a trap or two, read at once.
  CHECK(queue.add(5, t0) == Added::queued);
  CHECK(queue.add(5, t0 + 1ms) == Added::coalesced);
  REQUIRE(queue.start(t0 + 2ms) == std::vector<unsigned>{5});
  queue.finished();
  CHECK_FALSE(queue.next_start());
  // A storm: named three times within 2 s: held until 2 s after its last trap.
  CHECK(queue.add(7, t0 + 10s) == Added::queued);
  CHECK(queue.add(9, t0 + 10s) == Added::queued);
  CHECK(queue.add(7, t0 + 10s + 200ms) == Added::coalesced);
  CHECK(queue.add(7, t0 + 10s + 500ms) == Added::coalesced);
  CHECK(queue.start(t0 + 10s + 600ms) == std::vector<unsigned>{9});  // 9 is not in a storm
  queue.finished();
  CHECK(queue.next_start() == t0 + 12s + 500ms);
  CHECK(queue.start(t0 + 12s).empty());
  CHECK(queue.add(7, t0 + 12s + 100ms) == Added::coalesced);  // still storming: held on
  CHECK(queue.start(t0 + 12s + 500ms).empty());
  CHECK(queue.start(t0 + 14s + 100ms) == std::vector<unsigned>{7});
  queue.finished();
  CHECK_FALSE(queue.next_start());
  CHECK(queue.counts().settled == 1);
  // Named again after its read: read again a second after it at the soonest.
  CHECK(queue.add(7, t0 + 14s + 300ms) == Added::queued);
  CHECK(queue.next_start() == t0 + 15s + 100ms);
}
