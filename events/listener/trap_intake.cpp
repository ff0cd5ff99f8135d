// SPDX-License-Identifier: MIT

#include "trap_intake.hpp"

#include <sstream>

namespace ibpm::events {

namespace {

constexpr unsigned kGidInService = 64;
constexpr unsigned kGidOutOfService = 65;
constexpr unsigned kLinkStateChange = 128;
constexpr unsigned kLocalChanges = 144;
constexpr unsigned kSystemImageChange = 145;

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
  // 144 and 145 carry the node's LID at details byte 2.
  if (trap.trap_number == kLocalChanges || trap.trap_number == kSystemImageChange)
    return trap.details_u16(2);
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
    queue_repoll(*lid, what, now, epoch_now);
    return;
  }
  if (trap.generic && (trap.trap_number == kGidInService || trap.trap_number == kGidOutOfService)) {
    take_gid_change(trap, what, now, epoch_now);
    return;
  }
  ++counts_.ignored;
  if (said_numbers_.insert(trap.trap_number).second)
    say_(what + ": not acted on (said once per trap number)");
}

void TrapIntake::queue_repoll(unsigned lid, const std::string& what,
                              RepollQueue::Clock::time_point now, double epoch_now) {
  switch (queue_.add(lid, now)) {
    case RepollQueue::Added::queued:
      say_(what + ": re-poll of LID " + std::to_string(lid) + " queued");
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
}

// Trap 64/65: the GID at details byte 6, its interface ID (bytes 8-15) the port GUID.
void TrapIntake::take_gid_change(const TrapRecord& trap, const std::string& what,
                                 RepollQueue::Clock::time_point now, double epoch_now) {
  const std::uint8_t* gid = trap.details.data() + 6;
  Guid port_guid = 0;
  for (int i = 8; i < 16; ++i) port_guid = (port_guid << 8) | gid[i];
  const std::string said = what + ": GID " + gid_text(gid) +
                           (trap.trap_number == kGidInService ? " in service" : " out of service");
  if (locator_) {
    if (const std::optional<unsigned> lid = locator_->switch_lid(port_guid)) {
      say_(said + ": its switch is LID " + std::to_string(*lid));
      queue_repoll(*lid, what, now, epoch_now);
      return;
    }
    const bool joins = join_ && trap.trap_number == kGidInService && locator_->problem().empty();
    if (!joins) ++counts_.ignored;
    if (said_ports_.insert(port_guid).second)
      say_(said + ": not in " + locator_->path() +
           (!locator_->problem().empty() ? " (" + locator_->problem() + ")"
            : joins ? " (a node joined: learnt at the SA and added to it by a re-poll; said once)"
                    : " (the next discovery adds it; said once)"));
    if (joins) join_(port_guid);
    return;
  }
  ++counts_.ignored;
  say_(said);
}

}  // namespace ibpm::events
