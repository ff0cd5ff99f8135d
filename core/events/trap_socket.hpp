// SPDX-License-Identifier: MIT
// The listener's end of the OpenSM event plugin's socket: an AF_UNIX datagram socket bound at a
// path (mode 0660), non-blocking, whose descriptor a poll() loop waits on, and from which trap
// records (events/trap_record.hpp) are read one datagram at a time.
//
// Binding never replaces what is not a socket: a regular file, folder or link at the path is an
// error. A socket file left by a listener that is gone (nobody bound to it: connect() is refused)
// is removed and bound again; one a live listener holds is an error. The destructor removes the
// socket file when it is still the one this object bound.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>

#include "events/trap_record.hpp"

namespace ibpm::events {

class TrapSocket {
 public:
  // Binds at `path`; throws std::runtime_error "PATH: reason" (std::system_error for a failed
  // system call) when it cannot.
  explicit TrapSocket(std::filesystem::path path);
  ~TrapSocket();
  TrapSocket(const TrapSocket&) = delete;
  TrapSocket& operator=(const TrapSocket&) = delete;

  // For poll(): readable when a datagram waits.
  int fd() const { return fd_; }
  const std::filesystem::path& path() const { return path_; }

  // The next well-formed record waiting, without blocking; nullopt when none waits. Datagrams
  // that are not records (decode_trap_record refuses them) are counted and passed over.
  std::optional<TrapRecord> receive();
  // Datagrams passed over as malformed since the socket was bound.
  std::uint64_t malformed() const { return malformed_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  dev_t dev_ = 0;  // the socket file this object bound, removed by the destructor if still there
  ino_t ino_ = 0;
  std::uint64_t malformed_ = 0;
};

}  // namespace ibpm::events
