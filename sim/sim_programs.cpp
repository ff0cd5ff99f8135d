// SPDX-License-Identifier: MIT

#include "sim/sim_programs.hpp"

#include <glob.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string_view>

#include "sim/process.hpp"

namespace ibpm::sim {
namespace {

constexpr std::array<std::string_view, 24> kDiags{
    "ibnetdiscover", "perfquery", "smpquery",   "ibaddr",   "saquery",  "iblinkinfo",
    "ibqueryerrors", "ibstat",    "ibstatus",   "ibroute",  "ibping",   "ibportstate",
    "ibswitches",    "ibhosts",   "ibnodes",    "sminfo",   "smpdump",  "ibtracert",
    "ibcacheedit",   "ibccquery", "ibccconfig", "dump_fts", "vendstat", "ibsysstat"};

std::string base_name(const std::string& program) {
  return std::filesystem::path(program).filename().string();
}

}  // namespace

std::string debian_package_for(const std::string& program) {
  std::string name = base_name(program);
  if (name == "ibsim" || name == "ibsim-run") return "ibsim-utils";
  if (name == "libumad2sim.so") return "libumad2sim0 (comes with ibsim-utils)";
  if (name == "opensm") return "opensm";
  if (std::find(kDiags.begin(), kDiags.end(), name) != kDiags.end()) return "infiniband-diags";
  return "";
}

std::filesystem::path require_program(const std::string& name) {
  if (auto path = find_program(name)) return *path;
  std::string package = debian_package_for(name);
  std::string message = "program '" + name + "' not found";
  if (!package.empty()) message += " (Debian package " + package + ": " + kInstallHint + ")";
  throw MissingProgram(message);
}

std::optional<std::filesystem::path> find_umad2sim() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (const char* env = std::getenv("IBPM_UMAD2SIM"); env && *env) {
    if (fs::is_regular_file(env, ec)) return fs::path(env);
    return std::nullopt;
  }
  for (const char* pattern :
       {"/usr/lib/*/umad2sim/libumad2sim.so", "/usr/lib64/umad2sim/libumad2sim.so",
        "/usr/lib/umad2sim/libumad2sim.so", "/usr/local/lib/umad2sim/libumad2sim.so",
        "/usr/local/lib/*/umad2sim/libumad2sim.so"}) {
    glob_t found{};
    if (glob(pattern, 0, nullptr, &found) == 0 && found.gl_pathc > 0) {
      fs::path path = found.gl_pathv[0];
      globfree(&found);
      return path;
    }
    globfree(&found);
  }
  return std::nullopt;
}

std::filesystem::path require_umad2sim() {
  if (auto path = find_umad2sim()) return *path;
  throw MissingProgram(std::string("libumad2sim.so not found (Debian package libumad2sim0, "
                                   "installed with ibsim-utils: ") +
                       kInstallHint + "; or set IBPM_UMAD2SIM)");
}

std::vector<std::string> missing_simulator_parts() {
  std::vector<std::string> missing;
  for (const char* program : {"ibsim", "opensm", "ibnetdiscover"})
    if (!find_program(program))
      missing.push_back(std::string(program) + " (" + debian_package_for(program) + ")");
  if (!find_umad2sim()) missing.push_back("libumad2sim.so (libumad2sim0)");
  return missing;
}

}  // namespace ibpm::sim
