// SPDX-License-Identifier: MIT

#include "sim/stale_reaper.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include "sim/process.hpp"
#include "sim/sim_state.hpp"
#include "sim/work_dir.hpp"

namespace ibpm::sim {

int reap_stale_simulations(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  int reaped = 0;
  std::error_code ec;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& dir = it->path();
    if (!dir.filename().string().starts_with("ibpm-sim-")) continue;
    struct stat st;
    if (lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid()) continue;
    auto state = read_state(dir);
    if (!state || state->owner_pid <= 0 || process_alive(state->owner_pid)) continue;
    end_simulation_process(*state);
    remove_simulation_files(dir, *state);
    ++reaped;
  }
  return reaped;
}

}  // namespace ibpm::sim
