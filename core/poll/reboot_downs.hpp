// SPDX-License-Identifier: MIT
// A link that goes down because a node at either end rebooted (firmware work, a crash, a power
// cycle) is not a flapping cable: the reboot is the node's event, already seen as its counters
// starting again from zero or as the node not answering. Without this rule a node rebooted three
// times within the flap window made its cables "flapping" for the whole recovery period.
#pragma once

#include <vector>

#include "poll/port_result.hpp"

namespace ibpm::poll {

// Takes the downs of this run's interval, and of the interval before it, out of each answered
// port's error history when the port's own counters were reset by someone else (a reboot), or its
// cable's far end, polled in the same run, did not answer or was reset: the link goes down as the
// node goes away, which a sweep may see one run before the node's counters come back from zero.
// Done before the history is kept, so that a reboot never counts towards a flap in a later run
// either.
void forget_reboot_downs(std::vector<PortResult>& results);

}  // namespace ibpm::poll
