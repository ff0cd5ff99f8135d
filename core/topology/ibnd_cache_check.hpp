// SPDX-License-Identifier: MIT
// Checks a libibnetdisc cache file before libibnetdisc reads it. ibnd_load_fabric trusts every
// count, index and LID in the file: a port number past its node's port table is written through,
// and an LMC over 15 makes it insert LIDs forever (memory grows until the process is killed). So
// every tool validates the whole file here first and fails with a one-line reason instead.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace ibpm::topology {

// The largest cache file we read (a 1M-port fabric's cache is about 100 MB).
constexpr std::size_t kMaxIbndCacheBytes = std::size_t{1} << 29;

// Throws std::runtime_error "NAME: reason" unless `bytes` is a complete, self-consistent
// libibnetdisc cache file (version 1): magic and version, node and port counts that add up to the
// file's size, port numbers within their node, LIDs and LMCs in range, every node and port listed
// once, every port owned by the node that lists it, every remote port present, the "from" node
// present. Runs in time and memory linear in the file's size.
void validate_ibnd_cache(std::span<const unsigned char> bytes, const std::string& name);

}  // namespace ibpm::topology
