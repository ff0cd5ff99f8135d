// SPDX-License-Identifier: MIT
// What the listener does with a trap, whichever way it came (the OpenSM plugin's socket or a
// Report from the SA): counted, and
//   - 128 (a switch's link changed state: the switch's LID, no port), 144 (a node's
//     capabilities, description or enabled width or speed changed) and 145 (its system image
//     GUID changed): the LID queued for a re-poll (repoll_queue.hpp), which also refreshes the
//     node's description and system image GUID in the saved topology; a LID that is no unicast
//     LID is said once per value and ignored;
//   - 64/65 (a GID in or out of service): logged, and with a PortLocator the switch that holds the
//     port or sits at the far end of its cable queued for a re-poll (its result says at once that
//     the link came up or went down); a port the saved topology lacks is said once, and for a
//     64 (a node joined) handed to the join callback, which has the re-poll learn it at the SA
//     and add it to the topology (check_ib_fabric --join);
//   - any other number: said once per trap number.
// A flood naming one LID is one queued line in the log (the rest coalesce silently), a budget
// spent is said at its first drop and every hundredth.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "events/trap_record.hpp"
#include "port_locator.hpp"
#include "repoll_queue.hpp"

namespace ibpm::events {

// The LID a trap asks to re-poll, if any: the switch of a 128, the node of a 144 or 145.
std::optional<unsigned> lid_to_repoll(const TrapRecord& trap);

struct TrapCounts {
  std::uint64_t traps = 0;
  double last_trap = 0;  // epoch seconds, 0: none yet
  double last_drop = 0;  // the last LID the re-poll budget dropped
  std::map<unsigned, std::uint64_t> by_trap;
  std::uint64_t ignored = 0;  // traps that name nothing to re-poll
};

class TrapIntake {
 public:
  using Say = std::function<void(const std::string&)>;

  // `budget`: the queue's switches a minute, for the line that says it is spent. `locator`, when
  // given (and outliving this), places the ports of traps 64/65.
  TrapIntake(RepollQueue& queue, std::size_t budget, Say say, PortLocator* locator = nullptr)
      : queue_(queue), budget_(budget), say_(std::move(say)), locator_(locator) {}

  // `source`, when not empty, ends the log lines ("(SA)"), so the two ways in can be told apart.
  void take(const TrapRecord& trap, RepollQueue::Clock::time_point now, double epoch_now,
            const std::string& source = "");

  const TrapCounts& counts() const { return counts_; }

  // Called with the port GUID of each trap 64 whose port the topology lacks (a node joined).
  using Join = std::function<void(Guid)>;
  void on_join(Join join) { join_ = std::move(join); }

 private:
  void queue_repoll(unsigned lid, const std::string& what, RepollQueue::Clock::time_point now,
                    double epoch_now);
  void take_gid_change(const TrapRecord& trap, const std::string& what,
                       RepollQueue::Clock::time_point now, double epoch_now);

  RepollQueue& queue_;
  std::size_t budget_;
  Say say_;
  TrapCounts counts_;
  std::set<unsigned> said_numbers_;  // trap numbers not acted on, said once
  std::set<unsigned> said_lids_;     // LIDs that are no unicast LID, said once
  PortLocator* locator_ = nullptr;
  std::set<Guid> said_ports_;  // port GUIDs of 64/65 the topology lacks, said once
  Join join_;
};

}  // namespace ibpm::events
