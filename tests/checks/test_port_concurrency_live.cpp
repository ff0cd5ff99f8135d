// SPDX-License-Identifier: MIT
// Two check_ib_port runs on the same port at the same moment: both finish with a state, and the
// port's RRD stays a valid file that moved on. The node lock serializes them; the second may sample
// less than a millisecond after the first did, which must not cost it its sample.
#include <catch2/catch.hpp>
#include <chrono>
#include <latch>
#include <thread>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace {

// Two runs of the same command released together, the second `offset` later.
std::pair<ProcessRun, ProcessRun> run_twice_at_once(LiveFabric& live,
                                                    const std::vector<std::string>& args,
                                                    std::chrono::microseconds offset = {}) {
  ProcessRun a, b;
  std::latch go(2);
  std::thread other([&] {
    go.arrive_and_wait();
    std::this_thread::sleep_for(offset);
    b = live.run("check_ib_port", args);
  });
  go.arrive_and_wait();
  a = live.run("check_ib_port", args);
  other.join();
  return {a, b};
}

}  // namespace

TEST_CASE("check_ib_port runs on the same port at the same time both finish") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("concurrent");
  const std::vector<std::string> args{"--state-dir", state.path(), "-n", "leaf01", "-p", "3"};

  // A fresh state directory: both may discover the fabric and create the file.
  auto [first_a, first_b] = run_twice_at_once(live, args);
  for (const ProcessRun* run : {&first_a, &first_b}) {
    INFO(run->out << run->err);
    CHECK(run->exit_code >= 0);
    CHECK(run->exit_code <= 2);
  }
  const std::string rrd = state.port_rrd(live, "leaf01", 3);
  REQUIRE_NOTHROW(rrd_info(rrd));
  const double t1 = sample_time(rrd);

  for (int round = 0; round < 40; ++round) {
    // Offsets of 0 to 2 ms sweep the second run's arrival across the first one's turn.
    auto [a, b] = run_twice_at_once(live, args, std::chrono::microseconds(round % 20 * 100));
    for (const ProcessRun* run : {&a, &b}) {
      INFO("round " << round << ": " << run->out << run->err);
      CHECK(run->exit_code >= 0);
      CHECK(run->exit_code <= 2);
      CHECK(run->first_line().find("leaf01[3] <-> ") != std::string::npos);
    }
  }
  REQUIRE_NOTHROW(rrd_info(rrd));
  CHECK(sample_time(rrd) > t1);
}
