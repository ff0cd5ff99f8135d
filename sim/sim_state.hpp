// SPDX-License-Identifier: MIT
// What a running simulation writes into its folder so that another process (ibpm-sim cmd,
// exec, stop; a later harness cleaning up after a crash) can reach it and stop it:
//   state      key=value lines (below)
//   env        shell-sourceable: export IBSIM_SOCKNAME=... LD_PRELOAD=...
//   ibsim.pid  ibsim's pid
//   console    fifo feeding ibsim's console;  ibsim.log  its output
//   fabric.net the net file's text (the cabling, for ibpm-sim traffic)
//   traffic    when ibpm-sim traffic started its flows
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>

namespace ibpm::sim {

namespace sim_files {
inline constexpr const char* state = "state";
inline constexpr const char* env = "env";
inline constexpr const char* pid = "ibsim.pid";
inline constexpr const char* console = "console";
inline constexpr const char* log = "ibsim.log";
inline constexpr const char* osm = "osm";          // OSM_CACHE_DIR and osm.log
inline constexpr const char* net = "fabric.net";   // a copy of the net file ibsim serves
inline constexpr const char* clients = "clients";  // clients' folder when the work dir is tmpfs
inline constexpr const char* slots = "slots";      // ClientSlot lock files
inline constexpr const char* traffic = "traffic";  // ibpm-sim traffic's start
}  // namespace sim_files

struct SimState {
  std::string socket_name;
  pid_t ibsim_pid = 0;
  std::filesystem::path clients_dir;
  std::filesystem::path ld_preload;
  pid_t owner_pid = 0;            // the process whose harness stops it; 0 when detached
  bool owns_work_dir = false;     // the work dir was made for it: stop removes it all
  bool created_work_dir = false;  // a given work dir was created by start: stop removes it if empty
  bool separate_clients_dir = false;  // clients_dir is outside the work dir: stop removes it
};

// Writes state, env and ibsim.pid (each replaced atomically).
void write_state(const std::filesystem::path& work_dir, const SimState& state);

// nullopt when there is no readable state file.
std::optional<SimState> read_state(const std::filesystem::path& work_dir);

// "export IBSIM_SOCKNAME='...'\nexport LD_PRELOAD='...'\n"
std::string env_file_text(const SimState& state);

}  // namespace ibpm::sim
