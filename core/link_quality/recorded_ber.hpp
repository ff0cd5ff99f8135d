// SPDX-License-Identifier: MIT
// The bit error ratios of every port as the collectors on this host last judged them, for the
// dashboard and the map: read from the sample records in STATE_DIR/samples/ (never from the
// fabric). A port kept by several records (a sweep and a port check) is taken from the one with
// its latest sample.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "link_quality/ber_windows.hpp"

namespace ibpm::link_quality {

struct RecordedBer {
  double sample_time = 0;          // the latest sample the windows end at
  std::vector<BerWindow> windows;  // as ber_windows() gives them (active ports only)
};

// Unreadable records are skipped, each with a line in `warnings`.
std::map<PortRef, RecordedBer> read_recorded_ber(const std::string& state_dir,
                                                 const BerSettings& settings,
                                                 std::vector<std::string>& warnings);

// The worst judged window of a port (highest lower bound, then ratio); nullptr when none is
// judged or none saw an error.
const BerWindow* worst_window(const RecordedBer& ber);

// "symbol_ber 2e-11 over 12 min" of the worst window, or "" when there is none.
std::string summary(const RecordedBer& ber);

}  // namespace ibpm::link_quality
