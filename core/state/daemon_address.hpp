// SPDX-License-Identifier: MIT
// rrdcached's address, read in one place: the configured one or RRDCACHED_ADDRESS, and what it
// names, as rrdcached's -l takes it: "unix:/path" or "/path" (a local daemon), "host",
// "host:port" or "[v6]:port" (over TCP, 42217 by default).
#pragma once

#include <string>

namespace ibpm::state {

// The address to use: `configured`, else RRDCACHED_ADDRESS when set, else empty (no daemon: the
// files are read and written directly). The store applies it once (PortStore's constructor).
std::string daemon_address(const std::string& configured);

struct DaemonEndpoint {
  bool unix_socket = false;
  std::string path;  // the socket's, for a unix socket
  std::string host;  // for TCP (without the brackets of a v6 address)
  std::string port = "42217";
  bool malformed = false;  // "[v6" without its "]"
};

// What a non-empty address names.
DaemonEndpoint parse_daemon_address(const std::string& address);

// True for an address rrdcached is reached at over the network (not "unix:/path" or "/path").
bool is_tcp_address(const std::string& address);

}  // namespace ibpm::state
