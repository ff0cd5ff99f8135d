// SPDX-License-Identifier: MIT
// The MADs that arrive at a umad port, read by a thread of its own and handed to the listener's
// poll() loop through an eventfd. Why not the umad descriptor itself in that poll(): under the
// simulator, libumad2sim's poll() waits on its own descriptor alone when it is given one among
// others, and the listener would then miss its signals, the plugin's socket and its re-polls'
// ends. The thread sleeps in umad_recv with no timeout: a quiet fabric costs no CPU, on hardware
// and under the simulator alike.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mad/umad_port.hpp"

namespace ibpm::events {

class UmadReader {
 public:
  // Starts reading `port`, which the thread keeps open for as long as it runs.
  explicit UmadReader(std::shared_ptr<const mad::UmadPort> port);
  // The thread stays blocked in umad_recv (nothing can wake it under the simulator): it is left
  // to end with the process.
  ~UmadReader();
  UmadReader(const UmadReader&) = delete;
  UmadReader& operator=(const UmadReader&) = delete;

  // Readable when packets wait (poll() it, then take()).
  int fd() const;
  // The packets received since the last call (each the umad header then the MAD, an SA table
  // reassembled by the kernel in one), oldest first.
  std::vector<std::vector<std::uint8_t>> take();
  // Why the thread stopped reading, empty while it reads.
  std::string error() const;

  struct Shared;

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace ibpm::events
