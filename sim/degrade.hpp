// SPDX-License-Identifier: MIT
// Degraded links: a cable that trained to fewer lanes or a lower speed than the fabric's
// nominal rate, for tests of degraded-link detection.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "fabric/types.hpp"
#include "sim/net_topology.hpp"

namespace ibpm::sim {

struct LinkDegradation {
  std::string node;
  int port = 0;
  LinkWidth width = LinkWidth::x1;
  std::optional<LinkSpeed> speed;  // unchanged when absent
  bool both_ends = true;
};

// Lowers what the port enables, and with both_ends its peer's too. ibsim brings a link up at
// the best width and speed both ends enable, but every PortInfo Set (OpenSM sends one to each
// port of a link in its sweep) makes the width and speed the *set* port enables active on both
// ends: with one degraded end the link ends up at whichever rate was set last. Degrade both
// ends for a link that stays degraded after the sweep; judge it against the baseline, since
// enabled and active then agree. Throws std::invalid_argument for an unknown node or an
// uncabled port.
void degrade_link(NetTopology& topology, const LinkDegradation& degradation);

// "leaf01[19]=1x" or "leaf01[19]=4xEDR" (node[port]=width[speed]); nullopt when malformed.
std::optional<LinkDegradation> parse_degradation(std::string_view text);

}  // namespace ibpm::sim
