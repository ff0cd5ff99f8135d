// SPDX-License-Identifier: MIT
// --replay recordings (pcap files of ERF InfiniBand records): the reader refuses the input with
// one MadError line, or reads it and answers queries from it, in bounded memory and time.
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "mad/pma.hpp"
#include "mad/replay_source.hpp"
#include "mad/smp.hpp"

namespace {

// One memory file for every input, so no input touches the disk.
int input_file() {
  static const int fd = memfd_create("fuzz-recording", MFD_CLOEXEC);
  return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  const int fd = input_file();
  if (fd < 0 || ftruncate(fd, 0) != 0) return 0;
  if (size && pwrite(fd, data, size, 0) != static_cast<ssize_t>(size)) return 0;
  try {
    ibpm::mad::ReplaySource replay("/proc/self/fd/" + std::to_string(fd));
    // The queries of the seed's recording (and of a sweep): answered, timed out or missing.
    for (const ibpm::mad::MadQuery& query :
         {ibpm::mad::port_counters_query(5, 1), ibpm::mad::port_counters_extended_query(5, 1),
          ibpm::mad::node_info_query(5), ibpm::mad::port_info_query(5, 1)}) {
      try {
        replay.answer(query);
      } catch (const ibpm::mad::ReplayMissing&) {
      }
    }
  } catch (const ibpm::mad::MadError&) {
  }
  return 0;
}
