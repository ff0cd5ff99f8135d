#include "poll/state_topology.hpp"

#include <filesystem>

#include "dump/ibnetdiscover_writer.hpp"
#include "base/atomic_file.hpp"

namespace ibpm::poll {

std::string state_topology_path(const plugin::FabricOptions& options) {
  return (std::filesystem::path(options.state_dir) / "topology.ibnetdiscover").string();
}

Topology discover(const plugin::FabricOptions& options) {
  return discover_topology(DiscoveryOptions{options.ca, options.port, 0, 0});
}

void save_state_topology(const plugin::FabricOptions& options, const Fabric& fabric) {
  std::filesystem::create_directories(options.state_dir);
  base::replace_file_with(state_topology_path(options),
                    [&](std::ostream& out) { write_ibnetdiscover(out, fabric); });
}

Topology load_topology(const plugin::FabricOptions& options, bool force_discovery) {
  if (!force_discovery && !options.cache.empty()) return load_topology_file(options.cache);
  const std::string cache = state_topology_path(options);
  if (!force_discovery && std::filesystem::exists(cache)) return load_topology_file(cache);
  Topology topology = discover(options);
  save_state_topology(options, topology.fabric);
  return topology;
}

}  // namespace ibpm::poll
