// SPDX-License-Identifier: MIT
// A real rrdcached for tests, started in the foreground by the test and stopped by its
// destructor: on a unix socket (a local daemon) or on a loopback TCP port (a central store, its
// base directory DIR/state made by the daemon's -R). It writes to disk only when asked (-w an
// hour), so whatever a read sees before then came through the daemon.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "support/process.hpp"

namespace ibpm::test {

inline const char* const kRrdcached = "/usr/bin/rrdcached";

enum class Listen { unix_socket, tcp };
// Whether the daemon makes the folders of the files it is asked to create (-R, as deployed), or
// refuses (a store misconfigured).
enum class Folders { made, refused };

// A TCP port on the loopback that nothing listens on (the kernel's pick).
int free_loopback_port();
bool accepts_connections(int port);

class Rrdcached {
 public:
  // commands: rrdcached's -P (the only commands it serves); empty: every command.
  explicit Rrdcached(const std::filesystem::path& dir, Listen how = Listen::unix_socket,
                     Folders folders = Folders::made, const std::string& commands = {});
  ~Rrdcached();
  Rrdcached(const Rrdcached&) = delete;
  Rrdcached& operator=(const Rrdcached&) = delete;

  bool wait_until_listening();
  std::string address() const;
  int port() const { return port_; }  // 0 on a unix socket
  // The daemon's process (a test may stop it with SIGSTOP: a store that hangs).
  pid_t pid() const { return daemon_->pid(); }

 private:
  std::filesystem::path socket_;
  int port_ = 0;
  std::optional<BackgroundProcess> daemon_;
};

}  // namespace ibpm::test
