// SPDX-License-Identifier: MIT
// Cleans up after harnesses that died without stopping their simulation (a test that
// crashed, a runner that was killed): their ibsim would otherwise run forever.
#pragma once

#include <filesystem>

namespace ibpm::sim {

// For each root/ibpm-sim-* folder of this user whose state names an owner process that no
// longer exists: ends its ibsim (checked by pid and socket name) and removes the folder.
// Detached simulations (owner 0, from `ibpm-sim start`) and live owners are left alone.
// Returns how many were cleaned up.
int reap_stale_simulations(const std::filesystem::path& root);

}  // namespace ibpm::sim
