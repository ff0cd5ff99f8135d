// SPDX-License-Identifier: MIT
// A libibnetdisc cache file read through ibpm's own copy of its fabric: libibnetdisc reads a
// cache with a system call per node and per port (33,000 at 23,328 ports, 0.14 s of a sweep's
// second), ibpm's snapshot loads in one read. The copy lives in the state directory, tagged
// with the cache's identity (device, inode, size, modification time), and is used only while
// the cache is that same file: any change to the cache reads it through libibnetdisc again.
#pragma once

#include <string>

#include "topology/topology.hpp"

namespace ibpm::topology {

// The identity a snapshot of `cache` is tagged with; empty when the file cannot be looked at.
std::string cache_identity(const std::string& cache);

// The topology in `cache` (any topology file; only libibnetdisc caches go through the copy).
// Without a state directory, or when the copy cannot be written (a read-only state folder), the
// cache is read as it is. The copy holds no libibnetdisc fabric: Topology::ibnd stays empty.
// Throws std::runtime_error with a one-line reason, as load_topology_file does.
Topology load_cache_file(const std::string& cache, const std::string& state_dir);

}  // namespace ibpm::topology
