// SPDX-License-Identifier: MIT
// The start of ibpm-sim traffic's flows, kept in the simulation's folder: the first call starts
// them a second back, later calls count from that start, --restart and a new flows file start
// anew.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "sim/traffic_command.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm::sim;
namespace fs = std::filesystem;

TEST_CASE("Traffic time: counted from the first call, one second back") {
  const ibpm::test::TempDir tmp("traffic-time");
  const fs::path dir = tmp.path();

  CHECK_FALSE(read_traffic_start(dir));
  TrafficTime t = traffic_time(dir, "/x/jobs.flows", false, 1000.0);
  CHECK(t.started);
  CHECK(t.seconds == Approx(1.0));
  REQUIRE(read_traffic_start(dir));
  CHECK(read_traffic_start(dir)->flows_file == "/x/jobs.flows");
  CHECK(read_traffic_start(dir)->start == Approx(999.0));

  t = traffic_time(dir, "/x/jobs.flows", false, 1030.5);
  CHECK_FALSE(t.started);
  CHECK(t.seconds == Approx(31.5));
  t = traffic_time(dir, "/x/jobs.flows", false, 1060.0);
  CHECK(t.seconds == Approx(61.0));

  SECTION("--restart starts anew") {
    t = traffic_time(dir, "/x/jobs.flows", true, 2000.0);
    CHECK(t.started);
    CHECK(t.seconds == Approx(1.0));
    CHECK(traffic_time(dir, "/x/jobs.flows", false, 2010.0).seconds == Approx(11.0));
  }
  SECTION("another flows file starts anew") {
    t = traffic_time(dir, "/x/other.flows", false, 2000.0);
    CHECK(t.started);
    CHECK(traffic_time(dir, "/x/other.flows", false, 2002.0).seconds == Approx(3.0));
  }
  SECTION("a clock going back never gives negative traffic") {
    CHECK(traffic_time(dir, "/x/jobs.flows", false, 900.0).seconds == 0);
  }
  SECTION("a damaged file starts anew") {
    std::ofstream(dir / "traffic") << "flows=/x/jobs.flows\nstart=soon\n";
    CHECK_FALSE(read_traffic_start(dir));
    CHECK(traffic_time(dir, "/x/jobs.flows", false, 3000.0).started);
  }
}
