// SPDX-License-Identifier: MIT
// Which switches the listener re-polls, and when. A trap names a LID; the LIDs named since the
// last re-poll wait here, each once however many traps name it (a switch rebooting sends dozens),
// and leave together in one re-poll (one process, one MAD window) when it may start:
//   - one re-poll in flight at a time; a LID is read again min_interval after its last read at
//     the soonest (one re-read of a switch a second at most, whatever it sends), while the other
//     end of the same cable, named a moment later, goes as soon as the re-poll in flight ends;
//   - at most max_nodes LIDs a re-poll (the rest wait for the next);
//   - at most budget LIDs re-polled per budget_window: a storm (a rack losing power) costs no more
//     MADs than that many switches' ports. A LID named when the budget is spent is dropped and
//     counted; the next sweep is the backstop;
//   - a LID named storm_names times within `settle` is in a storm: its links are still changing,
//     and the subnet manager still rerouting. It waits until no trap has named it for `settle`,
//     and is read then, once: the result it gets is the state the storm left. A single change
//     (a trap or two from each end of a cable) is read at once.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace ibpm::events {

struct RepollLimits {
  std::chrono::milliseconds min_interval{1000};
  std::size_t max_nodes = 64;
  std::size_t budget = 256;  // LIDs re-polled per window
  std::chrono::seconds budget_window{60};
  std::chrono::milliseconds settle{2000};
  std::size_t storm_names = 3;
};

struct RepollCounts {
  std::uint64_t named = 0;      // LIDs named by traps
  std::uint64_t coalesced = 0;  // named while already waiting
  std::uint64_t dropped = 0;    // named when the budget was spent
  std::uint64_t runs = 0;       // re-polls started
  std::uint64_t polled = 0;     // LIDs re-polled
  std::uint64_t settled = 0;    // of them, held until their storm settled
};

class RepollQueue {
 public:
  using Clock = std::chrono::steady_clock;

  explicit RepollQueue(RepollLimits limits) : limits_(limits) {}

  enum class Added { queued, coalesced, dropped };
  // A trap names `lid`: queued, coalesced with the same LID waiting already, or dropped (the
  // budget is spent).
  Added add(unsigned lid, Clock::time_point now);
  // When the next re-poll may start: nullopt when nothing waits or one is in flight (the loop
  // then waits for a trap or for the re-poll to end, and nothing else).
  std::optional<Clock::time_point> next_start() const;
  // The LIDs of the re-poll that starts now, in the order they were named; empty when none may
  // start yet. The re-poll is in flight until finished().
  std::vector<unsigned> start(Clock::time_point now);
  void finished() { in_flight_ = false; }

  bool in_flight() const { return in_flight_; }
  std::size_t waiting() const { return waiting_.size(); }
  const RepollCounts& counts() const { return counts_; }

 private:
  // LIDs re-polled within the window that ends now.
  std::size_t spent(Clock::time_point now);
  // When a waiting LID may be read: min_interval after its last read, and once its storm settled.
  Clock::time_point ready_at(unsigned lid) const;
  bool stormy(unsigned lid) const;

  RepollLimits limits_;
  std::deque<unsigned> waiting_;
  std::set<unsigned> waiting_set_;
  std::map<unsigned, std::deque<Clock::time_point>> named_;  // within `settle`, oldest first
  std::map<unsigned, Clock::time_point> last_polled_;
  std::deque<Clock::time_point> recent_;  // one entry per LID re-polled, oldest first
  bool in_flight_ = false;
  RepollCounts counts_;
};

}  // namespace ibpm::events
