// SPDX-License-Identifier: MIT
// Folders of a simulation: where they go, and removing what a simulation put there.
#pragma once

#include <filesystem>
#include <string>

#include "sim/sim_state.hpp"

namespace ibpm::sim {

// /dev/shm when writable (clients start ~15 times faster there, see clients_dir), else
// $TMPDIR, else /tmp.
std::filesystem::path default_work_root();

bool on_tmpfs(const std::filesystem::path& path);

// A new folder root/prefixXXXXXX (mode 0700).
std::filesystem::path make_private_dir(const std::filesystem::path& root,
                                       const std::string& prefix);

// Removes what a simulation created: the whole work dir when it owns it, else its own files
// (and the work dir when start created it and it is empty now), plus a separate clients dir.
void remove_simulation_files(const std::filesystem::path& work_dir, const SimState& state);

// Ends the state's ibsim by pid, after checking that the pid still is that ibsim (its
// environment holds the simulation's IBSIM_SOCKNAME): pids are reused.
void end_simulation_process(const SimState& state);

}  // namespace ibpm::sim
