// SPDX-License-Identifier: MIT
// libibnetdisc cache files: the check refuses the input with a std::runtime_error, or libibnetdisc
// loads it and it becomes a Fabric, in bounded memory (run with -rss_limit_mb) and time.
#include <sys/mman.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include "topology/topology.hpp"

namespace {

// One memory file for every input, so no input touches the disk.
int input_file() {
  static const int fd = memfd_create("fuzz-cache", MFD_CLOEXEC);
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const int fd = input_file();
  if (fd < 0 || ftruncate(fd, 0) != 0) return 0;
  if (size && pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  try {
    ibpm::topology::load_topology_file("/proc/self/fd/" + std::to_string(fd));
  } catch (const std::runtime_error&) {
  }
  return 0;
}
