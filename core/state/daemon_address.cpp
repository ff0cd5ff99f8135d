// SPDX-License-Identifier: MIT

#include "state/daemon_address.hpp"

#include <cstdlib>

namespace ibpm::state {

std::string daemon_address(const std::string& configured) {
  if (!configured.empty()) return configured;
  const char* env = std::getenv("RRDCACHED_ADDRESS");
  return env ? env : "";
}

DaemonEndpoint parse_daemon_address(const std::string& address) {
  DaemonEndpoint endpoint;
  if (address.starts_with("unix:") || address.starts_with("/")) {
    endpoint.unix_socket = true;
    endpoint.path = address.starts_with("unix:") ? address.substr(5) : address;
    return endpoint;
  }
  endpoint.host = address;
  if (address.starts_with("[")) {  // [v6]:port
    const std::size_t close = address.find(']');
    if (close == std::string::npos) {
      endpoint.malformed = true;
      return endpoint;
    }
    if (close + 1 < address.size() && address[close + 1] == ':')
      endpoint.port = address.substr(close + 2);
    endpoint.host = address.substr(1, close - 1);
  } else if (const std::size_t colon = address.rfind(':');
             colon != std::string::npos && address.find(':') == colon) {
    endpoint.port = address.substr(colon + 1);
    endpoint.host = address.substr(0, colon);
  }
  return endpoint;
}

bool is_tcp_address(const std::string& address) {
  return !address.empty() && !parse_daemon_address(address).unix_socket;
}

}  // namespace ibpm::state
