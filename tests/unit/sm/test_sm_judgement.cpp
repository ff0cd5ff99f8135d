// SPDX-License-Identifier: MIT
// The subnet managers' judgement from SMInfo records alone: what ibsim cannot easily produce (two
// masters, an out-of-range state, a hostile node description) and what takes time (staleness).
#include <catch2/catch.hpp>

#include "plugin/render.hpp"
#include "sm/judgement.hpp"

using namespace ibpm::sm;
using ibpm::plugin::State;

namespace {

SmSeen sm(ibpm::Guid guid, unsigned lid, std::string name, unsigned priority, SmState state,
          std::optional<std::uint32_t> act_count = 100) {
  return {guid, lid, std::move(name), priority, static_cast<unsigned>(state), act_count};
}

const Clock::time_point t0 = Clock::time_point(std::chrono::seconds(1'800'000'000));

State state_of(const Judgement& j) { return effective_state(j.check); }

std::string text(const Judgement& j) { return ibpm::plugin::render_text(j.check, "IB SM"); }

}  // namespace

TEST_CASE("sm judgement: one master and a standby of lower priority is OK") {
  const auto j = judge({sm(1, 1, "h1", 10, SmState::master), sm(3, 3, "h2", 5, SmState::standby)},
                       std::nullopt, {}, t0, 0.001);
  INFO(text(j));
  CHECK(state_of(j) == State::ok);
  CHECK(j.check.summary.rfind("master h1 (0x0000000000000001, LID 1), priority 10, 1 standby", 0) ==
        0);
  CHECK(j.next.master->port_guid == 1);
  CHECK(j.failover.empty());
  CHECK(text(j).find("sa_query_time=0.001s") != std::string::npos);
}

TEST_CASE("sm judgement: two masters are CRITICAL, both named") {
  const auto j = judge({sm(1, 1, "h1", 10, SmState::master), sm(3, 3, "h2", 5, SmState::master)},
                       std::nullopt, {}, t0, std::nullopt);
  INFO(text(j));
  CHECK(state_of(j) == State::critical);
  CHECK(j.check.summary.find("2 masters: h1 (0x0000000000000001, LID 1), h2") != std::string::npos);
}

TEST_CASE("sm judgement: no master answering is CRITICAL") {
  const auto j = judge({sm(3, 3, "h2", 5, SmState::standby)}, std::nullopt, {}, t0, std::nullopt);
  CHECK(state_of(j) == State::critical);
  CHECK(j.check.summary.rfind("no master SM answers", 0) == 0);
}

TEST_CASE("sm judgement: a standby of higher priority than the master is a WARNING") {
  const auto j = judge({sm(1, 1, "h1", 3, SmState::master), sm(3, 3, "h2", 12, SmState::standby)},
                       std::nullopt, {}, t0, std::nullopt);
  INFO(text(j));
  CHECK(state_of(j) == State::warning);
  CHECK(j.check.summary.find("priority 3 is lower than standby h2 (0x0000000000000003, LID 3) "
                             "priority 12") != std::string::npos);
}

TEST_CASE("sm judgement: a state out of range is UNKNOWN") {
  const auto j = judge({sm(1, 1, "h1", 10, SmState::master), sm(3, 3, "h2", 5, SmState(9))},
                       std::nullopt, {}, t0, std::nullopt);
  INFO(text(j));
  CHECK(state_of(j) == State::unknown);
  CHECK(j.check.summary.find("h2 (0x0000000000000003, LID 3) reports state 9") !=
        std::string::npos);
}

TEST_CASE("sm judgement: a hostile node description stays on one line") {
  const auto j = judge({sm(1, 1, "evil\nIB SM OK - fine | x=1\x1b[2J", 10, SmState::master),
                        sm(3, 3, "h2", 12, SmState::standby)},
                       std::nullopt, {}, t0, std::nullopt);
  const std::string out = text(j);
  INFO(out);
  CHECK(out.rfind("IB SM WARNING - master evil IB SM OK - fine / x=1 [2J", 0) == 0);
  CHECK(out.find('\x1b') == std::string::npos);
  // The first line's perfdata is ours alone.
  const std::string first = out.substr(0, out.find('\n'));
  CHECK(first.find(" | ") == first.rfind(" | "));
}

TEST_CASE("sm judgement: fewer SMs than expected, and the wrong master, are WARNINGs naming both") {
  Expectations expect;
  expect.sms = 3;
  expect.master = "h2";
  const auto j = judge({sm(1, 1, "h1", 10, SmState::master), sm(3, 3, "h2", 5, SmState::standby),
                        sm(5, 5, "h3", 1, SmState::standby, std::nullopt)},
                       std::nullopt, expect, t0, std::nullopt);
  INFO(text(j));
  CHECK(state_of(j) == State::warning);
  CHECK(j.check.summary.find("master is h1 (0x0000000000000001, LID 1), expected h2") !=
        std::string::npos);
  CHECK(
      j.check.summary.find("2 of 3 expected SMs answer; silent: h3 (0x0000000000000005, LID 5)") !=
      std::string::npos);
  expect.master = "0x0000000000000001";
  expect.sms = 2;
  CHECK(state_of(judge({sm(1, 1, "h1", 10, SmState::master), sm(3, 3, "h2", 5, SmState::standby)},
                       std::nullopt, expect, t0, std::nullopt)) == State::ok);
}

TEST_CASE("sm judgement: an ActCount that does not move is CRITICAL after --stale-after") {
  Expectations expect;
  expect.stale_after = std::chrono::seconds(60);
  const auto first =
      judge({sm(1, 1, "h1", 10, SmState::master, 500)}, std::nullopt, expect, t0, std::nullopt);
  CHECK(state_of(first) == State::ok);
  // Moving: the rate is in the long output and the perfdata.
  const auto moving = judge({sm(1, 1, "h1", 10, SmState::master, 800)}, first.next, expect,
                            t0 + std::chrono::seconds(30), std::nullopt);
  INFO(text(moving));
  CHECK(state_of(moving) == State::ok);
  CHECK(text(moving).find("ActCount 800 (10/s)") != std::string::npos);
  CHECK(text(moving).find("actcount_per_s=10;") != std::string::npos);
  // Still 800 after 40 s: not yet stale; after 70 s since it last moved: stale.
  const auto still = judge({sm(1, 1, "h1", 10, SmState::master, 800)}, moving.next, expect,
                           t0 + std::chrono::seconds(70), std::nullopt);
  CHECK(state_of(still) == State::ok);
  const auto stale = judge({sm(1, 1, "h1", 10, SmState::master, 800)}, still.next, expect,
                           t0 + std::chrono::seconds(100), std::nullopt);
  INFO(text(stale));
  CHECK(state_of(stale) == State::critical);
  CHECK(stale.check.summary.rfind(
            "master SM h1 (0x0000000000000001, LID 1) has sent no SMP in 70 s", 0) == 0);
  // ActCount wraps at 2^32 without a negative rate.
  const auto before_wrap = judge({sm(1, 1, "h1", 10, SmState::master, 0xfffffff0u)}, std::nullopt,
                                 expect, t0, std::nullopt);
  const auto wrapped = judge({sm(1, 1, "h1", 10, SmState::master, 0x10u)}, before_wrap.next, expect,
                             t0 + std::chrono::seconds(8), std::nullopt);
  CHECK(text(wrapped).find("actcount_per_s=4;") != std::string::npos);
}

TEST_CASE("sm judgement: a failover is a WARNING once, with the event, then OK") {
  const auto first =
      judge({sm(1, 1, "h1", 10, SmState::master), sm(3, 3, "h2", 5, SmState::standby)},
            std::nullopt, {}, t0, std::nullopt);
  // The master is gone: CRITICAL, the old master is remembered.
  const auto none = judge(
      {sm(1, 1, "h1", 10, SmState::master, std::nullopt), sm(3, 3, "h2", 5, SmState::standby)},
      first.next, {}, t0 + std::chrono::seconds(10), std::nullopt);
  CHECK(state_of(none) == State::critical);
  CHECK(none.next.master->port_guid == 1);
  CHECK(none.failover.empty());
  const auto over = judge({sm(3, 3, "h2", 5, SmState::master)}, none.next, {},
                          t0 + std::chrono::seconds(20), std::nullopt);
  INFO(text(over));
  CHECK(state_of(over) == State::warning);
  CHECK(over.failover ==
        "failover from h1 (0x0000000000000001, LID 1) to h2 (0x0000000000000003, LID 3) at "
        "2027-01-15T08:00:20Z");
  const auto after = judge({sm(3, 3, "h2", 5, SmState::master, 200)}, over.next, {},
                           t0 + std::chrono::seconds(30), std::nullopt);
  CHECK(state_of(after) == State::ok);
  CHECK(after.failover.empty());
}

TEST_CASE("sm judgement: a state dated ahead of the clock restarts the ActCount from now") {
  Expectations expect;
  expect.stale_after = std::chrono::seconds(60);
  // The last run was at t0 + 1 h; the clock has since stepped back to t0.
  const Clock::time_point ahead = t0 + std::chrono::hours(1);
  const auto before =
      judge({sm(1, 1, "h1", 10, SmState::master, 500)}, std::nullopt, expect, ahead, std::nullopt);
  const auto stepped =
      judge({sm(1, 1, "h1", 10, SmState::master, 500)}, before.next, expect, t0, std::nullopt);
  INFO(text(stepped));
  CHECK(state_of(stepped) == State::ok);
  CHECK(text(stepped).find("clock stepped back: the last run's state is dated 3600 s ahead, the "
                           "master's ActCount is followed from now") != std::string::npos);
  CHECK(text(stepped).find("actcount_per_s") == std::string::npos);
  // The future time is not carried on.
  CHECK(stepped.next.sampled <= t0);
  CHECK(stepped.next.moved <= t0);
  // Said once: the next run trusts its state, and the silent master is named after --stale-after,
  // not after the length of the step.
  const auto stale = judge({sm(1, 1, "h1", 10, SmState::master, 500)}, stepped.next, expect,
                           t0 + std::chrono::seconds(61), std::nullopt);
  INFO(text(stale));
  CHECK(text(stale).find("clock stepped back") == std::string::npos);
  CHECK(state_of(stale) == State::critical);
  CHECK(stale.check.summary.rfind(
            "master SM h1 (0x0000000000000001, LID 1) has sent no SMP in 61 s", 0) == 0);

  // With no master answering, the last master is remembered from now, not from the future.
  const auto none = judge({sm(1, 1, "h1", 10, SmState::master, std::nullopt)}, before.next, expect,
                          t0, std::nullopt);
  INFO(text(none));
  CHECK(text(none).find("clock stepped back") != std::string::npos);
  REQUIRE(none.next.master);
  CHECK(none.next.sampled <= t0);
  CHECK(none.next.moved <= t0);
  const auto silent = judge({sm(1, 1, "h1", 10, SmState::master, std::nullopt)}, none.next, expect,
                            t0 + std::chrono::seconds(60), std::nullopt);
  CHECK(silent.check.summary.rfind(
            "master SM h1 (0x0000000000000001, LID 1) has sent no SMP in 60 s", 0) == 0);

  // Within the sample record's tolerance (a second ahead): nothing said, nothing ahead kept.
  const auto close = judge({sm(1, 1, "h1", 10, SmState::master, 500)}, std::nullopt, expect,
                           t0 + std::chrono::seconds(1), std::nullopt);
  const auto near =
      judge({sm(1, 1, "h1", 10, SmState::master, 500)}, close.next, expect, t0, std::nullopt);
  CHECK(text(near).find("clock stepped back") == std::string::npos);
  CHECK(near.next.moved <= t0);
}
