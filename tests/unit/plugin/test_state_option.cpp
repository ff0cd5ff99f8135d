// SPDX-License-Identifier: MIT
// parse_state and add_state_option: state names on the command line, in any case.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "plugin/state.hpp"

using namespace ibpm::plugin;

TEST_CASE("parse_state takes every state's name in any case", "[plugin][state]") {
  CHECK(parse_state("ok") == State::ok);
  CHECK(parse_state("OK") == State::ok);
  CHECK(parse_state("warning") == State::warning);
  CHECK(parse_state("Warning") == State::warning);
  CHECK(parse_state("critical") == State::critical);
  CHECK(parse_state("CRITICAL") == State::critical);
  CHECK(parse_state("unknown") == State::unknown);
  CHECK(parse_state("uNkNoWn") == State::unknown);
  CHECK_FALSE(parse_state(""));
  CHECK_FALSE(parse_state("crit"));
  CHECK_FALSE(parse_state("2"));
  CHECK_FALSE(parse_state("ok "));
}

TEST_CASE("add_state_option accepts only its states, in any case", "[plugin][state]") {
  CLI::App app("test", "check_test");
  State target = State::warning;
  CLI::Option* option = add_state_option(app, "--unreachable", target,
                                         {State::ok, State::warning, State::critical}, "")
                            .get();
  CHECK(option->get_default_str() == "warning");

  SECTION("the default stays") {
    app.parse("", false);
    CHECK(target == State::warning);
  }
  SECTION("lower case") {
    app.parse("--unreachable critical", false);
    CHECK(target == State::critical);
  }
  SECTION("upper and mixed case") {
    app.parse("--unreachable OK", false);
    CHECK(target == State::ok);
    app.parse("--unreachable Critical", false);
    CHECK(target == State::critical);
  }
  SECTION("a state not accepted") {
    CHECK_THROWS_AS(app.parse("--unreachable unknown", false), CLI::ValidationError);
    CHECK(target == State::warning);
  }
  SECTION("not a state") {
    CHECK_THROWS_AS(app.parse("--unreachable bad", false), CLI::ValidationError);
  }
}
