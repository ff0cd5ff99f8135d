// SPDX-License-Identifier: MIT

#include "trap_intake.hpp"

#include <sstream>

namespace ibpm::events {

namespace {

constexpr unsigned kGidInService = 64;
constexpr unsigned kGidOutOfService = 65;
constexpr unsigned kLinkStateChange = 128;
constexpr unsigned kLocalChanges = 144;

std::string gid_text(const std::uint8_t* gid) {
  std::ostringstream text;
  text << std::hex;
  for (int i = 0; i < 16; i += 2) {
    if (i) text << ':';
    text << ((gid[i] << 8) | gid[i + 1]);
  }
  return text.str();
}

}  // namespace

std::optional<unsigned> lid_to_repoll(const TrapRecord& trap) {
  if (!trap.generic) return std::nullopt;
  if (trap.trap_number == kLinkStateChange) return trap.details_u16(0);
  if (trap.trap_number == kLocalChanges) return trap.details_u16(2);
  return std::nullopt;
}

void TrapIntake::take(const TrapRecord& trap, RepollQueue::Clock::time_point now, double epoch_now,
                      const std::string& source) {
  ++counts_.traps;
  ++counts_.by_trap[trap.trap_number];
  counts_.last_trap = epoch_now;
  const std::string what = "trap " + std::to_string(trap.trap_number) + " from LID " +
                           std::to_string(trap.issuer_lid) +
                           (source.empty() ? "" : " (" + source + ")");
  if (const std::optional<unsigned> lid = lid_to_repoll(trap)) {
    if (*lid == 0 || *lid >= 0xc000) {
      ++counts_.ignored;
      if (said_lids_.insert(*lid).second)
        say_(what + ": names no unicast LID (" + std::to_string(*lid) +
             "): ignored (said once per LID)");
      return;
    }
    switch (queue_.add(*lid, now)) {
      case RepollQueue::Added::queued:
        say_(what + ": re-poll of LID " + std::to_string(*lid) + " queued");
        break;
      case RepollQueue::Added::coalesced:
        break;  // said when it was queued
      case RepollQueue::Added::dropped:
        counts_.last_drop = epoch_now;
        if (queue_.counts().dropped == 1 || queue_.counts().dropped % 100 == 0)
          say_(what + ": re-poll budget spent (" + std::to_string(budget_) + " a minute), " +
               std::to_string(queue_.counts().dropped) +
               " dropped so far; the next sweep is the backstop");
        break;
    }
    return;
  }
  ++counts_.ignored;
  if (trap.generic && (trap.trap_number == kGidInService || trap.trap_number == kGidOutOfService))
    say_(what + ": GID " + gid_text(trap.details.data() + 6) +
         (trap.trap_number == kGidInService ? " in service" : " out of service"));
  else if (said_numbers_.insert(trap.trap_number).second)
    say_(what + ": not acted on (said once per trap number)");
}

}  // namespace ibpm::events
