// SPDX-License-Identifier: MIT
// What a check says about its own state files, beside the ports: notes (a sample record that
// was ignored, a state folder others can write to) and a sample record that could not be saved.
// The latter is a WARNING, not a note: until it is saved again, every run takes its previous
// samples from the RRD files, reports the same state changes again as events, and starts its
// BER and flapping history afresh.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plugin/result.hpp"

namespace ibpm::poll {

// Appends one OK line per note, and a WARNING line naming the file when `record_failure` (as
// save_record returns it) is set; an explicitly set check.state is raised to WARNING then.
void add_state_lines(plugin::Check& check, const std::vector<std::string>& notes,
                     const std::optional<std::string>& record_failure);

}  // namespace ibpm::poll
