// SPDX-License-Identifier: MIT
// A check's lines about its own state: notes stay OK, a sample record not saved is a WARNING
// that names the file.
#include <catch2/catch.hpp>

#include "poll/state_lines.hpp"

using namespace ibpm;
using plugin::State;

TEST_CASE("a sample record that cannot be saved is a warning naming the file") {
  plugin::Check check;
  check.state = State::ok;
  poll::add_state_lines(check, {"a note"},
                        "cannot write /s/samples/sweep.rec: No space left on device");
  REQUIRE(check.subchecks.size() == 2);
  CHECK(check.subchecks[0].state == State::ok);
  CHECK(check.subchecks[1].state == State::warning);
  CHECK_THAT(check.subchecks[1].output,
             Catch::StartsWith("sample record not saved (cannot write /s/samples/sweep.rec: No "
                               "space left on device)"));
  CHECK(check.state == State::warning);

  plugin::Check critical;
  critical.state = State::critical;
  poll::add_state_lines(critical, {}, "cannot write /s/samples/sweep.rec");
  CHECK(critical.state == State::critical);

  plugin::Check derived;  // no state set: the worst subcheck's
  poll::add_state_lines(derived, {"a note"}, std::nullopt);
  CHECK(plugin::effective_state(derived) == State::ok);
  poll::add_state_lines(derived, {}, "cannot write x");
  CHECK(plugin::effective_state(derived) == State::warning);
}
