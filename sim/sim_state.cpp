// SPDX-License-Identifier: MIT

#include "sim/sim_state.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "base/atomic_file.hpp"

namespace ibpm::sim {
namespace {

void write_atomically(const std::filesystem::path& path, const std::string& text) {
  base::replace_file_with(path.string(), [&text](std::ostream& out) { out << text; });
}

std::string quoted(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'')
      out += "'\\''";
    else
      out += c;
  }
  return out + "'";
}

}  // namespace

std::string env_file_text(const SimState& state) {
  return "# Environment of clients of the simulated fabric (source it: . ./env)\n"
         "export IBSIM_SOCKNAME=" +
         quoted(state.socket_name) +
         "\n"
         "export LD_PRELOAD=" +
         quoted(state.ld_preload.string()) +
         "\n"
         "# Sanitizer builds of our tools: the preload comes before the ASan runtime.\n"
         "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0\"\n";
}

void write_state(const std::filesystem::path& work_dir, const SimState& state) {
  std::ostringstream s;
  s << "socket_name=" << state.socket_name << '\n'
    << "ibsim_pid=" << state.ibsim_pid << '\n'
    << "clients_dir=" << state.clients_dir.string() << '\n'
    << "ld_preload=" << state.ld_preload.string() << '\n'
    << "owner_pid=" << state.owner_pid << '\n'
    << "owns_work_dir=" << state.owns_work_dir << '\n'
    << "created_work_dir=" << state.created_work_dir << '\n'
    << "separate_clients_dir=" << state.separate_clients_dir << '\n';
  write_atomically(work_dir / sim_files::state, s.str());
  write_atomically(work_dir / sim_files::env, env_file_text(state));
  write_atomically(work_dir / sim_files::pid, std::to_string(state.ibsim_pid) + "\n");
}

std::optional<SimState> read_state(const std::filesystem::path& work_dir) {
  std::ifstream in(work_dir / sim_files::state);
  if (!in) return std::nullopt;
  SimState state;
  std::string line;
  bool any = false;
  while (std::getline(in, line)) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    try {
      if (key == "socket_name")
        state.socket_name = value;
      else if (key == "ibsim_pid")
        state.ibsim_pid = static_cast<pid_t>(std::stol(value));
      else if (key == "clients_dir")
        state.clients_dir = value;
      else if (key == "ld_preload")
        state.ld_preload = value;
      else if (key == "owner_pid")
        state.owner_pid = static_cast<pid_t>(std::stol(value));
      else if (key == "owns_work_dir")
        state.owns_work_dir = value == "1";
      else if (key == "created_work_dir")
        state.created_work_dir = value == "1";
      else if (key == "separate_clients_dir")
        state.separate_clients_dir = value == "1";
      any = true;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  if (!any || state.socket_name.empty()) return std::nullopt;
  return state;
}

}  // namespace ibpm::sim
