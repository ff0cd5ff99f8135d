// SPDX-License-Identifier: MIT
// port_reason: why a port is at a given state, as the node check and the sweep both name it.
#include <catch2/catch.hpp>

#include "poll/port_report.hpp"

using ibpm::plugin::State;
using ibpm::plugin::Subcheck;
using ibpm::poll::port_reason;

TEST_CASE("port_reason joins the children of that state", "[poll][reason]") {
  Subcheck port{State::critical, "leaf01[3] <-> spine02[1]: 2 alerts", {}, {}};
  port.children.push_back({State::critical, "symbol_errors 12/s > 10/s", {}, {}});
  port.children.push_back({State::warning, "xmit_wait 3 % > 2 %", {}, {}});
  port.children.push_back({State::critical, "rcv_errors 27/s > 5/s", {}, {}});
  const auto reason = port_reason(port, State::critical, "leaf01[3] <-> spine02[1]");
  CHECK(reason.from_children);
  CHECK(reason.text == "symbol_errors 12/s > 10/s, rcv_errors 27/s > 5/s");
  CHECK(port_reason(port, State::warning, "leaf01[3] <-> spine02[1]").text ==
        "xmit_wait 3 % > 2 %");
}

TEST_CASE("port_reason falls back to the line without the cable", "[poll][reason]") {
  const Subcheck down{State::critical, "leaf01[3] <-> spine02[1]: Down", {}, {}};
  const auto reason = port_reason(down, State::critical, "leaf01[3] <-> spine02[1]");
  CHECK_FALSE(reason.from_children);
  CHECK(reason.text == "Down");
  // A line no longer than the cable is given whole.
  const Subcheck bare{State::unknown, "leaf01[3]", {}, {}};
  CHECK(port_reason(bare, State::unknown, "leaf01[3]").text == "leaf01[3]");
}
