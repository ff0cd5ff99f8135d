// SPDX-License-Identifier: MIT

#include <catch2/catch.hpp>

#include "plugin/state.hpp"

using namespace ibpm::plugin;

TEST_CASE("states are the Monitoring Plugins exit codes", "[plugin][state]") {
  CHECK(exit_code(State::ok) == 0);
  CHECK(exit_code(State::warning) == 1);
  CHECK(exit_code(State::critical) == 2);
  CHECK(exit_code(State::unknown) == 3);
  CHECK(to_string(State::ok) == "OK");
  CHECK(to_string(State::warning) == "WARNING");
  CHECK(to_string(State::critical) == "CRITICAL");
  CHECK(to_string(State::unknown) == "UNKNOWN");
}

TEST_CASE("worst() orders CRITICAL > WARNING > UNKNOWN > OK", "[plugin][state]") {
  const State order[] = {State::ok, State::unknown, State::warning, State::critical};
  for (int i = 0; i < 4; ++i) {
    CHECK(severity(order[i]) == i);
    for (int j = 0; j < 4; ++j) {
      INFO(to_string(order[i]) << " vs " << to_string(order[j]));
      CHECK(worst(order[i], order[j]) == order[std::max(i, j)]);
      CHECK(worst(order[i], order[j]) == worst(order[j], order[i]));
    }
  }
  // The pairs where this differs from numeric order or from the classic max_state().
  CHECK(worst(State::unknown, State::warning) == State::warning);
  CHECK(worst(State::unknown, State::critical) == State::critical);
  CHECK(worst(State::ok, State::unknown) == State::unknown);
}
