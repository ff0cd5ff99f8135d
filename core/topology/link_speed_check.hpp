// SPDX-License-Identifier: MIT
// Is a link running below what it should? The yardstick is what BOTH ends enable (PortInfo
// LinkWidthEnabled / LinkSpeedEnabled), and what the baseline saw; never what a port "supports"
// (simulators and some firmware claim 12x everywhere).
#pragma once

#include <optional>
#include <string>

#include "fabric/fabric.hpp"

namespace ibpm::topology {

struct LinkRate {
  std::optional<LinkWidth> width;
  std::optional<LinkSpeed> speed;
};

// The active width/speed of a cable: the lower of what its two ends report.
LinkRate active_rate(const Fabric& fabric, const Link& link);

// The best width/speed both ends enable; empty members where an end does not say.
LinkRate enabled_rate(const Fabric& fabric, const Link& link);

struct Degradation {
  LinkRate active;
  LinkRate expected;  // the higher of the enabled rate and the baseline's
  bool width = false;
  bool speed = false;
  explicit operator bool() const { return width || speed; }
  std::string describe() const;  // "1x HDR, expected 4x HDR"
};

// The same cable's active rate in a baseline fabric: nullopt when the baseline (nullptr: none)
// does not have this cable between the same two ports.
std::optional<LinkRate> baseline_rate(const Fabric* baseline, const Link& link);

// baseline_rate: the same cable's active rate in the baseline, when there is one.
Degradation check_link_rate(const Fabric& fabric, const Link& link,
                            const std::optional<LinkRate>& baseline_rate);

}  // namespace ibpm::topology
