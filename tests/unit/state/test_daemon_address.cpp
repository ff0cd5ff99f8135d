// SPDX-License-Identifier: MIT
// rrdcached's address read in one place: the configured one or RRDCACHED_ADDRESS, a unix socket or
// TCP (host, host:port, [v6]:port, 42217 by default).
#include <stdlib.h>

#include <catch2/catch.hpp>

#include "state/daemon_address.hpp"

using namespace ibpm::state;

TEST_CASE("rrdcached's address: the configured one, else RRDCACHED_ADDRESS, else none") {
  ::setenv("RRDCACHED_ADDRESS", "unix:/run/from-env.sock", 1);
  CHECK(daemon_address("127.0.0.1:1") == "127.0.0.1:1");
  CHECK(daemon_address("") == "unix:/run/from-env.sock");
  ::unsetenv("RRDCACHED_ADDRESS");
  CHECK(daemon_address("").empty());
}

TEST_CASE("rrdcached's address names a unix socket or a TCP host and port") {
  for (const char* local : {"unix:/run/ibpm/rrdcached.sock", "/run/ibpm/rrdcached.sock"}) {
    const DaemonEndpoint e = parse_daemon_address(local);
    CHECK(e.unix_socket);
    CHECK(e.path == "/run/ibpm/rrdcached.sock");
    CHECK_FALSE(is_tcp_address(local));
  }
  const DaemonEndpoint host = parse_daemon_address("ibpm-store");
  CHECK_FALSE(host.unix_socket);
  CHECK(host.host == "ibpm-store");
  CHECK(host.port == "42217");
  const DaemonEndpoint port = parse_daemon_address("10.0.0.5:4000");
  CHECK(port.host == "10.0.0.5");
  CHECK(port.port == "4000");
  const DaemonEndpoint v6 = parse_daemon_address("[fd00::5]:4000");
  CHECK(v6.host == "fd00::5");
  CHECK(v6.port == "4000");
  const DaemonEndpoint bare_v6 = parse_daemon_address("fd00::5");  // no port: every colon its own
  CHECK(bare_v6.host == "fd00::5");
  CHECK(bare_v6.port == "42217");
  CHECK(parse_daemon_address("[fd00::5").malformed);
  CHECK(is_tcp_address("10.0.0.5:4000"));
  CHECK_FALSE(is_tcp_address(""));
}
