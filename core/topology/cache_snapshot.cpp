// SPDX-License-Identifier: MIT

#include "topology/cache_snapshot.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "base/regular_file.hpp"
#include "fabric/fabric_snapshot.hpp"
#include "layout/state_layout.hpp"

namespace ibpm::topology {
namespace {

// A plain file only, read in one go: something else planted at the path (a FIFO, a device) is
// read around, never waited on.
std::optional<Fabric> read_snapshot(const std::string& path, const std::string& tag) {
  try {
    const base::FileDescriptor file(
        base::open_existing_regular_file(path, base::FinalLink::refuse));
    if (file.fd < 0) return std::nullopt;
    const auto size = static_cast<std::size_t>(base::file_size(file.fd));
    return fabric_from_snapshot(base::read_bytes(file.fd, 0, size, path), tag);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

}  // namespace

std::string cache_identity(const std::string& cache) {
  struct stat st {};
  if (::stat(cache.c_str(), &st) != 0) return {};
  // The path says which cache, the rest which version of it (a rewrite changes the time, and
  // a rename of another file over it the inode).
  return "of " + cache + " device " + std::to_string(st.st_dev) + " inode " +
         std::to_string(st.st_ino) + " size " + std::to_string(st.st_size) + " modified " +
         std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec);
}

Topology load_cache_file(const std::string& cache, const std::string& state_dir) {
  if (state_dir.empty() || detect_topology_format(cache) != TopologyFormat::ibnd_cache)
    return load_topology_file(cache);
  const std::string copy = layout::StateLayout(state_dir).cache_snapshot();
  const std::string tag = cache_identity(cache);
  if (tag.find('\n') != std::string::npos) return load_topology_file(cache);
  if (std::optional<Fabric> fabric = read_snapshot(copy, tag)) {
    Topology topology;
    topology.fabric = std::move(*fabric);
    topology.origin = cache;
    return topology;
  }
  Topology topology = load_topology_file(cache);
  try {
    const std::string bytes = fabric_snapshot(topology.fabric, tag);
    std::filesystem::create_directories(state_dir);
    base::replace_file_with(copy, [&](std::ostream& out) { out << bytes; });
  } catch (const std::exception&) {
    // Only a slower next run: the cache is read through libibnetdisc again.
  }
  return topology;
}

}  // namespace ibpm::topology
