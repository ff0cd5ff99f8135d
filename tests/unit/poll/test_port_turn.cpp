// SPDX-License-Identifier: MIT
// port_turn: one run in N per port, every port once in any N runs in a row, spread over the runs.
#include <catch2/catch.hpp>
#include <vector>

#include "poll/port_turn.hpp"

using ibpm::poll::port_turn;

TEST_CASE("every port has exactly one turn in any N runs in a row, and the turns spread") {
  // 100 switches of 36 ports with LIDs in sequence, as the subnet manager gives them.
  std::vector<std::pair<unsigned, ibpm::PortNumber>> ports;
  for (unsigned lid = 1; lid <= 100; ++lid)
    for (ibpm::PortNumber port = 1; port <= 36; ++port) ports.emplace_back(lid, port);
  for (const unsigned every : {2u, 7u, 10u}) {
    INFO("every " << every);
    std::vector<std::size_t> per_run(every, 0);
    for (const auto& [lid, port] : ports) {
      for (std::uint64_t first = 0; first < 3; ++first) {
        int turns = 0;
        for (std::uint64_t run = first; run < first + every; ++run)
          turns += port_turn(lid, port, run, every);
        CHECK(turns == 1);
      }
      for (std::uint64_t run = 0; run < every; ++run)
        per_run[run] += port_turn(lid, port, run, every);
    }
    const double even = static_cast<double>(ports.size()) / every;
    for (const std::size_t count : per_run) {
      CHECK(count > 0.8 * even);
      CHECK(count < 1.2 * even);
    }
  }
}

TEST_CASE("with every 0 or 1 each port has its turn at every run") {
  for (const unsigned every : {0u, 1u})
    for (std::uint64_t run = 0; run < 5; ++run) CHECK(port_turn(0x1234, 7, run, every));
}
