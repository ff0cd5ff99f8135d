// record_states and event_message: events on port state changes, remembered per node.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../state/temp_dir.hpp"
#include "products/port_events.hpp"
#include "state/node_locks.hpp"

using namespace ibpm;
using namespace ibpm::products;
using ibpm::plugin::State;
using ibpm::state::test::TempDir;
using namespace std::chrono_literals;

namespace {

constexpr Guid kLeaf = 0x0002c90300001234;
constexpr Guid kSpine = 0x0002c90300005678;

PortStatus status(Guid node, PortNumber port, State state, std::string detail = "") {
  return PortStatus{node, port, state, false, "leaf01[" + std::to_string(port) + "] <-> spine02[1]",
                    std::move(detail)};
}

PortStatus baseline(Guid node, PortNumber port) {
  PortStatus s = status(node, port, State::ok, "collecting baseline (first sample)");
  s.baseline = true;
  return s;
}

RecordedStates record(const TempDir& dir, const std::vector<PortStatus>& statuses) {
  return record_states(dir.path.string(), statuses, std::chrono::steady_clock::now() + 5s);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("the alerts file is in the node's state directory") {
  CHECK(alerts_path("/var/lib/ibpm", kLeaf) == "/var/lib/ibpm/0x0002c90300001234/alerts");
  CHECK(alerts_path("/var/lib/ibpm/", kLeaf) == "/var/lib/ibpm/0x0002c90300001234/alerts");
}

TEST_CASE("an empty state directory is refused") {
  CHECK_THROWS_AS(record_states("", {}, std::chrono::steady_clock::now()), std::invalid_argument);
}

TEST_CASE("the first sweep reports current problems once and OK ports not at all") {
  TempDir dir("events-first");
  const std::vector<PortStatus> sweep{
      status(kLeaf, 1, State::ok),
      status(kLeaf, 3, State::critical, "symbol_errors 12/s > 10/s"),
      status(kSpine, 1, State::ok),
  };
  const RecordedStates first = record(dir, sweep);
  CHECK(first.warnings.empty());
  REQUIRE(first.events.size() == 1);
  CHECK(first.events[0].status.port == 3);
  CHECK(first.events[0].status.state == State::critical);
  CHECK_FALSE(first.events[0].before);
  CHECK(read_all(alerts_path(dir.path.string(), kLeaf)) == "1 OK\n3 CRITICAL\n");
  CHECK(read_all(alerts_path(dir.path.string(), kSpine)) == "1 OK\n");

  SECTION("the same states again give no event and leave the file alone") {
    const std::string path = alerts_path(dir.path.string(), kLeaf);
    const auto written = std::filesystem::last_write_time(path);
    std::filesystem::last_write_time(path, written - 1h);
    const RecordedStates again = record(dir, sweep);
    CHECK(again.events.empty());
    CHECK(again.warnings.empty());
    CHECK(std::filesystem::last_write_time(path) == written - 1h);
  }

  SECTION("a recovery and a new problem are events with what came before") {
    const RecordedStates next = record(dir, {
                                                status(kLeaf, 1, State::warning, "xmit_wait_pct 7 %"),
                                                status(kLeaf, 3, State::ok),
                                                status(kSpine, 1, State::ok),
                                            });
    REQUIRE(next.events.size() == 2);
    CHECK(next.events[0].status.port == 1);
    CHECK(next.events[0].before == State::ok);
    CHECK(next.events[0].status.state == State::warning);
    CHECK(next.events[1].status.port == 3);
    CHECK(next.events[1].before == State::critical);
    CHECK(next.events[1].status.state == State::ok);
    CHECK(read_all(alerts_path(dir.path.string(), kLeaf)) == "1 WARNING\n3 OK\n");
  }
}

TEST_CASE("a port collecting its baseline gives no event") {
  TempDir dir("events-baseline");
  const RecordedStates first = record(dir, {baseline(kLeaf, 1)});
  CHECK(first.events.empty());
  CHECK(read_all(alerts_path(dir.path.string(), kLeaf)) == "1 OK\n");

  // What is remembered stays until the port has rates again.
  record(dir, {status(kLeaf, 2, State::critical)});
  CHECK(record(dir, {baseline(kLeaf, 2)}).events.empty());
  CHECK(read_all(alerts_path(dir.path.string(), kLeaf)) == "1 OK\n2 CRITICAL\n");
  CHECK(record(dir, {status(kLeaf, 2, State::critical)}).events.empty());

  // A baseline that is not OK (the port is down) is a state like any other.
  PortStatus down = baseline(kLeaf, 4);
  down.state = State::critical;
  CHECK(record(dir, {down}).events.size() == 1);
}

TEST_CASE("a second collector keeps the lines of the ports it did not look at") {
  TempDir dir("events-collectors");
  record(dir, {status(kLeaf, 1, State::critical), status(kLeaf, 2, State::ok)});
  const RecordedStates other = record(dir, {status(kLeaf, 5, State::warning)});
  REQUIRE(other.events.size() == 1);
  CHECK(other.events[0].status.port == 5);
  CHECK(read_all(alerts_path(dir.path.string(), kLeaf)) == "1 CRITICAL\n2 OK\n5 WARNING\n");
  // The first collector's ports are still remembered: no repeated event.
  CHECK(record(dir, {status(kLeaf, 1, State::critical)}).events.empty());
}

TEST_CASE("a corrupt alerts file is treated as empty and rewritten with a warning") {
  TempDir dir("events-corrupt");
  const std::string path = alerts_path(dir.path.string(), kLeaf);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  const char* corrupt[] = {"1 OK\ngarbage\n", "1 MAYBE\n", "300 OK\n", "1 OK\n1 CRITICAL\n",
                           "x1 OK\n", "1  OK\n"};
  for (const char* text : corrupt) {
    INFO(text);
    std::ofstream(path, std::ios::trunc) << text;
    const RecordedStates recorded =
        record(dir, {status(kLeaf, 1, State::ok), status(kLeaf, 2, State::critical)});
    REQUIRE(recorded.warnings.size() == 1);
    CHECK(recorded.warnings[0].find(path + ": corrupt") == 0);
    CHECK(recorded.events.size() == 1);
    CHECK(read_all(path) == "1 OK\n2 CRITICAL\n");
  }
}

TEST_CASE("an empty alerts file or one without a final line end is fine") {
  TempDir dir("events-lenient");
  const std::string path = alerts_path(dir.path.string(), kLeaf);
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << "";
  CHECK(record(dir, {status(kLeaf, 1, State::ok)}).warnings.empty());
  std::ofstream(path, std::ios::trunc) << "1 WARNING";
  const RecordedStates recorded = record(dir, {status(kLeaf, 1, State::ok)});
  CHECK(recorded.warnings.empty());
  REQUIRE(recorded.events.size() == 1);
  CHECK(recorded.events[0].before == State::warning);
}

TEST_CASE("a node whose lock is not had in time is skipped with a warning") {
  TempDir dir("events-locked");
  const auto held =
      state::NodeLocks::acquire(dir.path.string(), {kLeaf}, std::chrono::steady_clock::now() + 1s);
  const RecordedStates recorded =
      record_states(dir.path.string(), {status(kLeaf, 1, State::critical), status(kSpine, 1, State::critical)},
                    std::chrono::steady_clock::now() + 100ms);
  REQUIRE(recorded.warnings.size() == 1);
  CHECK(recorded.warnings[0].find(state::node_locks_path(dir.path.string()) + ": node " +
                                  format_guid(kLeaf) + " locked by another run") == 0);
  REQUIRE(recorded.events.size() == 1);
  CHECK(recorded.events[0].status.node == kSpine);
  CHECK_FALSE(std::filesystem::exists(alerts_path(dir.path.string(), kLeaf)));
}

TEST_CASE("the message names both cable ends the node and the change") {
  PortEvent event{status(kLeaf, 3, State::critical, "symbol_errors 12/s > 10/s"), State::ok};
  CHECK(event_message(event) ==
        "leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): OK -> CRITICAL: "
        "symbol_errors 12/s > 10/s");
  event.before.reset();
  event.status.detail.clear();
  CHECK(event_message(event) == "leaf01[3] <-> spine02[1] (0x0002c90300001234 port 3): CRITICAL");
  event.status.cable.clear();
  CHECK(event_message(event) == "0x0002c90300001234 port 3: CRITICAL");
}

TEST_CASE("the message replaces control characters of fabric names") {
  PortEvent event{status(kLeaf, 3, State::critical, "detail\r\nFake: line"), State::ok};
  event.status.cable = "leaf\n2024-05-01 host check_ib_fabric: all OK\x1b[2J\t\x7f\xc2\x85 end";
  const std::string message = event_message(event);
  CHECK(message ==
        "leaf 2024-05-01 host check_ib_fabric: all OK [2J    end (0x0002c90300001234 port 3): "
        "OK -> CRITICAL: detail  Fake: line");
  for (const char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    CHECK((byte >= 0x20 && byte != 0x7f));
  }
}

TEST_CASE("log_safe keeps printable UTF-8 and repairs invalid bytes") {
  CHECK(log_safe("Zürich rack|3") == "Zürich rack|3");
  CHECK(log_safe("a\xff" "b") == "a\xef\xbf\xbd" "b");
  CHECK(log_safe(std::string("a\0b", 3)) == "a b");
}
