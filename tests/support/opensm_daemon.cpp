// SPDX-License-Identifier: MIT

#include "support/opensm_daemon.hpp"

#include <fstream>
#include <thread>

#include "support/text_files.hpp"

namespace ibpm::test {

std::unique_ptr<BackgroundProcess> start_opensm_with_plugin(sim::SimulatedFabric& fabric,
                                                            const std::filesystem::path& dir,
                                                            const std::string& socket,
                                                            const std::string& plugin) {
  std::ofstream(dir / "opensm.conf") << "event_plugin_name ibpm_event_plugin\n"
                                     << "event_plugin_options ibpm_socket=" << socket << "\n"
                                     << "force_log_flush TRUE\n";
  std::string command = "cd '" + dir.string() + "' && exec env";
  for (const std::string& var : fabric.client_env_overrides()) command += " '" + var + "'";
  command += " LD_LIBRARY_PATH='" + std::filesystem::path(plugin).parent_path().string() +
             "' OSM_CACHE_DIR='" + dir.string() + "' '" + find_program("opensm") + "' -F '" +
             (dir / "opensm.conf").string() + "' -f '" + (dir / "osm.log").string() + "'";
  return std::make_unique<BackgroundProcess>(std::vector<std::string>{"/bin/sh", "-c", command},
                                             dir / "opensm.stdout");
}

std::unique_ptr<BackgroundProcess> start_opensm_daemon(sim::SimulatedFabric& fabric,
                                                       const std::filesystem::path& home,
                                                       const std::filesystem::path& conf,
                                                       const std::string& host, int priority) {
  std::filesystem::create_directories(home);
  std::string command = "cd '" + home.string() + "' && exec env";
  for (const std::string& var : fabric.client_env_overrides()) command += " '" + var + "'";
  if (!host.empty()) command += " SIM_HOST=" + host;
  command += " OSM_CACHE_DIR='" + home.string() + "' OSM_TMP_DIR='" + home.string() + "' '" +
             find_program("opensm") + "' -F '" + conf.string() + "' -f '" +
             (home / "osm.log").string() + "'";
  if (priority >= 0) command += " -p " + std::to_string(priority);
  return std::make_unique<BackgroundProcess>(std::vector<std::string>{"/bin/sh", "-c", command},
                                             home / "stdout");
}

bool log_says(const std::filesystem::path& log, const std::string& text,
              std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (std::filesystem::exists(log) && read_text(log).find(text) != std::string::npos) return true;
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace ibpm::test
