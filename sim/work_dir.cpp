// SPDX-License-Identifier: MIT

#include "sim/work_dir.hpp"

#include <stdlib.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "sim/process.hpp"

namespace ibpm::sim {
namespace {
constexpr long kTmpfsMagic = 0x01021994;
}

std::filesystem::path default_work_root() {
  if (access("/dev/shm", W_OK | X_OK) == 0) return "/dev/shm";
  if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp && access(tmp, W_OK | X_OK) == 0)
    return tmp;
  return "/tmp";
}

bool on_tmpfs(const std::filesystem::path& path) {
  struct statfs fs;
  return statfs(path.c_str(), &fs) == 0 && static_cast<long>(fs.f_type) == kTmpfsMagic;
}

std::filesystem::path make_private_dir(const std::filesystem::path& root,
                                       const std::string& prefix) {
  std::string pattern = (root / (prefix + "XXXXXX")).string();
  std::vector<char> buffer(pattern.begin(), pattern.end());
  buffer.push_back('\0');
  if (!mkdtemp(buffer.data()))
    throw std::system_error(errno, std::generic_category(),
                            "cannot create a folder in " + root.string());
  return std::filesystem::path(buffer.data());
}

void remove_simulation_files(const std::filesystem::path& work_dir, const SimState& state) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (state.separate_clients_dir && !state.clients_dir.empty())
    fs::remove_all(state.clients_dir, ec);
  if (state.owns_work_dir) {
    fs::remove_all(work_dir, ec);
    return;
  }
  for (const char* name :
       {sim_files::console, sim_files::log, sim_files::net, sim_files::env, sim_files::pid,
        sim_files::osm, sim_files::clients, sim_files::slots, sim_files::traffic})
    fs::remove_all(work_dir / name, ec);
  // The state file goes last: until then a later stop still finds what to clean.
  fs::remove(work_dir / sim_files::state, ec);
  if (state.created_work_dir && fs::is_empty(work_dir, ec)) fs::remove(work_dir, ec);
}

void end_simulation_process(const SimState& state) {
  if (state.ibsim_pid > 0 && process_alive(state.ibsim_pid) &&
      process_has_env(state.ibsim_pid, "IBSIM_SOCKNAME=" + state.socket_name))
    end_process(state.ibsim_pid);
}

}  // namespace ibpm::sim
