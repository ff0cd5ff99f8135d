// SPDX-License-Identifier: MIT
// state_change and event_message: events on port state changes against the state remembered.
#include <catch2/catch.hpp>
#include <map>

#include "products/port_events.hpp"
#include "two_switches.hpp"

using namespace ibpm;
using namespace ibpm::products;
using ibpm::plugin::State;
using ibpm::test::kLeaf;
using ibpm::test::kSpine;

namespace {

PortStatus status(Guid node, PortNumber port, State state, std::string detail = "") {
  return PortStatus{node,
                    port,
                    state,
                    false,
                    "leaf01[" + std::to_string(port) + "] <-> spine02[1]",
                    std::move(detail)};
}

PortStatus baseline(Guid node, PortNumber port) {
  PortStatus s = status(node, port, State::ok, "collecting baseline (first sample)");
  s.baseline = true;
  return s;
}

// What a sweep remembers between runs: the state last reported per port.
using Remembered = std::map<std::pair<Guid, PortNumber>, std::optional<State>>;

std::vector<PortEvent> sweep(Remembered& remembered, const std::vector<PortStatus>& statuses) {
  std::vector<PortEvent> events;
  for (const PortStatus& s : statuses)
    if (auto event = state_change(s, remembered[{s.node, s.port}])) events.push_back(*event);
  return events;
}

}  // namespace

TEST_CASE("the first sweep reports current problems once and OK ports not at all") {
  Remembered remembered;
  const std::vector<PortStatus> first_sweep{
      status(kLeaf, 1, State::ok),
      status(kLeaf, 3, State::critical, "symbol_errors 12/s > 10/s"),
      status(kSpine, 1, State::ok),
  };
  const std::vector<PortEvent> first = sweep(remembered, first_sweep);
  REQUIRE(first.size() == 1);
  CHECK(first[0].status.port == 3);
  CHECK(first[0].status.state == State::critical);
  CHECK_FALSE(first[0].before);
  CHECK(remembered[{kLeaf, 1}] == State::ok);
  CHECK(remembered[{kLeaf, 3}] == State::critical);
  CHECK(remembered[{kSpine, 1}] == State::ok);

  SECTION("the same states again give no event") {
    CHECK(sweep(remembered, first_sweep).empty());
    CHECK(remembered[{kLeaf, 3}] == State::critical);
  }

  SECTION("a recovery and a new problem are events with what came before") {
    const std::vector<PortEvent> next =
        sweep(remembered, {
                              status(kLeaf, 1, State::warning, "xmit_wait_pct 7 %"),
                              status(kLeaf, 3, State::ok),
                              status(kSpine, 1, State::ok),
                          });
    REQUIRE(next.size() == 2);
    CHECK(next[0].status.port == 1);
    CHECK(next[0].before == State::ok);
    CHECK(next[0].status.state == State::warning);
    CHECK(next[1].status.port == 3);
    CHECK(next[1].before == State::critical);
    CHECK(next[1].status.state == State::ok);
    CHECK(remembered[{kLeaf, 1}] == State::warning);
    CHECK(remembered[{kLeaf, 3}] == State::ok);
  }
}

TEST_CASE("a port collecting its baseline gives no event") {
  Remembered remembered;
  CHECK(sweep(remembered, {baseline(kLeaf, 1)}).empty());
  CHECK(remembered[{kLeaf, 1}] == State::ok);

  // What is remembered stays until the port has rates again.
  sweep(remembered, {status(kLeaf, 2, State::critical)});
  CHECK(sweep(remembered, {baseline(kLeaf, 2)}).empty());
  CHECK(remembered[{kLeaf, 2}] == State::critical);
  CHECK(sweep(remembered, {status(kLeaf, 2, State::critical)}).empty());

  // A baseline that is not OK (the port is down) is a state like any other.
  PortStatus down = baseline(kLeaf, 4);
  down.state = State::critical;
  CHECK(sweep(remembered, {down}).size() == 1);
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
  CHECK(log_safe("a\xff"
                 "b") ==
        "a\xef\xbf\xbd"
        "b");
  CHECK(log_safe(std::string("a\0b", 3)) == "a b");
}
