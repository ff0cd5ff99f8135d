// SPDX-License-Identifier: MIT
// Where the simulator's programs are, and which Debian package brings a missing one.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ibpm::sim {

// A program or library the simulation needs is not installed.
class MissingProgram : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "ibsim-utils" for ibsim, "opensm" for opensm, "infiniband-diags" for ibnetdiscover,
// perfquery, smpquery, ...; empty for anything else.
std::string debian_package_for(const std::string& program);

// find_program, or MissingProgram naming the package to install.
std::filesystem::path require_program(const std::string& name);

// libumad2sim.so, the LD_PRELOAD library that connects clients to ibsim ($IBPM_UMAD2SIM
// first, then the usual library folders).
std::optional<std::filesystem::path> find_umad2sim();
std::filesystem::path require_umad2sim();

// What is missing for a simulation (ibsim, opensm, ibnetdiscover, libumad2sim), as readable
// names; empty when everything is there. Tests skip on a non-empty answer.
std::vector<std::string> missing_simulator_parts();

// "apt-get install ibsim-utils opensm infiniband-diags"
inline constexpr const char* kInstallHint = "apt-get install ibsim-utils opensm infiniband-diags";

}  // namespace ibpm::sim
