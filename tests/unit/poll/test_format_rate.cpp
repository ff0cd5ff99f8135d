// SPDX-License-Identifier: MIT
// format_rate: the largest unit in which a rate is at least 1.
#include <catch2/catch.hpp>

#include "poll/port_report.hpp"

using ibpm::poll::format_rate;

TEST_CASE("format_rate uses per second from 1/s on") {
  CHECK(format_rate(1) == "1/s");
  CHECK(format_rate(12) == "12/s");
  CHECK(format_rate(12.345) == "12.3/s");
  CHECK(format_rate(150) == "150/s");
  CHECK(format_rate(1234.6) == "1235/s");
}

TEST_CASE("format_rate uses per minute below 1/s") {
  CHECK(format_rate(0.5) == "30/min");
  CHECK(format_rate(3.5 / 60) == "3.5/min");
  CHECK(format_rate(2.0 / 60) == "2/min");
}

TEST_CASE("format_rate uses per hour below 1/min") {
  CHECK(format_rate(40.0 / 3600) == "40/h");
  CHECK(format_rate(2.0 / 3600) == "2/h");
  CHECK(format_rate(0.5 / 3600) == "0.5/h");
}

TEST_CASE("format_rate writes no rate as zero") {
  const std::string zero = format_rate(0);
  CHECK(zero.rfind("0/", 0) == 0);
}
