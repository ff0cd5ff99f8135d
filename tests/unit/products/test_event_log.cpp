// SPDX-License-Identifier: MIT
// The sinks of port events: syslog facility names and priorities, and the event file.
#include <syslog.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <sstream>

#include "products/event_log.hpp"
#include "support/temp_dir.hpp"

using namespace ibpm;
using namespace ibpm::products;
using ibpm::plugin::State;
using ibpm::test::TempDir;

namespace {

PortEvent event(State before, State after, std::string detail = "") {
  return PortEvent{PortStatus{0x0002c90300001234, 3, after, false, "leaf01[3] <-> spine02[1]",
                              std::move(detail)},
                   before};
}

// 2024-05-01T12:00:00Z
std::chrono::system_clock::time_point may_day_noon() {
  return std::chrono::system_clock::time_point(std::chrono::seconds(1714564800));
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("syslog facilities are parsed by name") {
  CHECK(parse_syslog_facility("daemon") == LOG_DAEMON);
  CHECK(parse_syslog_facility("user") == LOG_USER);
  CHECK(parse_syslog_facility("local0") == LOG_LOCAL0);
  CHECK(parse_syslog_facility("local7") == LOG_LOCAL7);
  CHECK(parse_syslog_facility("LOCAL3") == LOG_LOCAL3);
  CHECK_THROWS_AS(parse_syslog_facility("local8"), std::invalid_argument);
  CHECK_THROWS_AS(parse_syslog_facility("kern"), std::invalid_argument);
  CHECK_THROWS_AS(parse_syslog_facility(""), std::invalid_argument);
  CHECK_THROWS_WITH(parse_syslog_facility("mail"), Catch::Contains("'mail'"));
}

TEST_CASE("the syslog priority follows the new state") {
  CHECK(syslog_level(event(State::ok, State::critical)) == LOG_CRIT);
  CHECK(syslog_level(event(State::ok, State::warning)) == LOG_WARNING);
  CHECK(syslog_level(event(State::ok, State::unknown)) == LOG_ERR);
  CHECK(syslog_level(event(State::critical, State::ok)) == LOG_NOTICE);
}

TEST_CASE("an event line has the UTC time the state and the message") {
  CHECK(
      event_line(event(State::ok, State::critical, "symbol_errors 12/s > 10/s"), may_day_noon()) ==
      "2024-05-01T12:00:00Z CRITICAL leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): "
      "OK -> CRITICAL: symbol_errors 12/s > 10/s\n");
}

TEST_CASE("the event file gets one line per event and is appended to") {
  TempDir dir("event-file");
  const std::string path = (dir.path() / "events.log").string();
  const EventLog log(EventLogOptions{std::nullopt, "check_ib_fabric", path});
  log.write({event(State::ok, State::critical), event(State::critical, State::ok)}, may_day_noon());
  log.write({}, may_day_noon());
  log.write({event(State::ok, State::warning)}, may_day_noon() + std::chrono::seconds(60));
  CHECK(read_all(path) ==
        "2024-05-01T12:00:00Z CRITICAL leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): "
        "OK -> CRITICAL\n"
        "2024-05-01T12:00:00Z OK leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): "
        "CRITICAL -> OK\n"
        "2024-05-01T12:01:00Z WARNING leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): "
        "OK -> WARNING\n");
}

TEST_CASE("an event file that cannot be opened gives an error naming it") {
  TempDir dir("event-file-missing");
  const std::string path = (dir.path() / "missing" / "events.log").string();
  const EventLog log(EventLogOptions{std::nullopt, "check_ib_fabric", path});
  CHECK_THROWS_WITH(log.write({event(State::ok, State::critical)}), Catch::StartsWith(path + ": "));
}
