// SPDX-License-Identifier: MIT
// judge_ports, count_ports and sweep_check on a sweep of constructed poll::PortResult values,
// judged with the default thresholds (symbol_errors: WARNING above 10/h, CRITICAL above 100/h).
#include <catch2/catch.hpp>

#include "plugin/render.hpp"
#include "support/port_results.hpp"
#include "sweep/sweep_report.hpp"
#include "thresholds/rate_thresholds.hpp"

using namespace ibpm;
using namespace ibpm::sweep;
using ibpm::test::own_target;
using ibpm::test::quiet_port;
using ibpm::test::unanswered_port;
using ibpm::test::with_rate;
using plugin::State;

namespace {

constexpr Guid kOtherNode = 0x0002c90300005678;

// leaf01[1] quiet, leaf01[2] WARNING, leaf01[3] and leaf01[4] CRITICAL (port 4 with the higher
// error rate), and leaf02, whose only port does not answer.
SweepResult mixed_sweep() {
  SweepResult sweep;
  sweep.fabric_ports = 5;
  sweep.duration = 0.25;
  sweep.poll_duration = 0.125;
  sweep.results.push_back(quiet_port(1));
  sweep.results.push_back(
      with_rate(quiet_port(2), counters::Counter::symbol_errors, 0.005));  // 18/h
  sweep.results.push_back(with_rate(quiet_port(3), counters::Counter::symbol_errors, 0.5));
  sweep.results.push_back(with_rate(with_rate(quiet_port(4), counters::Counter::symbol_errors, 1.0),
                                    counters::Counter::rcv_errors, 2.0));
  poll::PortResult dead = unanswered_port(1);
  poll::PortTarget& dead_target = own_target(dead);
  dead_target.node = kOtherNode;
  dead_target.lid = 23;
  dead_target.name = "leaf02[1]";
  dead_target.remote_name = "spine02[1]";
  sweep.results.push_back(dead);
  return sweep;
}

SweepReportSettings settings_with(const thresholds::RateThresholds& thresholds) {
  SweepReportSettings settings;
  settings.port.thresholds = &thresholds;
  settings.port.flap_per_port = false;
  return settings;
}

}  // namespace

TEST_CASE("sweep report: each port judged by the thresholds, an unanswered one as --unreachable") {
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  const SweepResult sweep = mixed_sweep();
  const std::vector<PortVerdict> verdicts = judge_ports(sweep, settings_with(thresholds));
  REQUIRE(verdicts.size() == 5);
  CHECK(verdicts[0].state == State::ok);
  CHECK(verdicts[0].reason().empty());
  // Only a port that is not OK carries the lines that describe it.
  CHECK(verdicts[0].detail == nullptr);
  for (std::size_t i = 1; i < verdicts.size(); ++i) CHECK(verdicts[i].detail != nullptr);
  CHECK(verdicts[1].state == State::warning);
  CHECK(verdicts[2].state == State::critical);
  CHECK(verdicts[3].state == State::critical);
  CHECK(verdicts[4].state == State::warning);  // SweepReportSettings::unreachable
  CHECK(verdicts[3].cable() == "leaf01[4] <-> spine01[1]");
  CHECK_THAT(verdicts[2].reason(), Catch::Contains("symbol_errors"));
  CHECK_THAT(verdicts[3].reason(), Catch::Contains("rcv_errors"));

  SweepReportSettings critical_when_unreachable = settings_with(thresholds);
  critical_when_unreachable.unreachable = State::critical;
  CHECK(judge_ports(sweep, critical_when_unreachable)[4].state == State::critical);
}

TEST_CASE("sweep report: counts of polled, in error, saturated, unreachable and baseline ports") {
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  SweepResult sweep = mixed_sweep();
  sweep.results[0] =
      with_rate(quiet_port(1), counters::Counter::xmit_data, 1e9, true);  // saturated
  const SweepCounts counts = count_ports(judge_ports(sweep, settings_with(thresholds)));
  CHECK(counts.polled == 4);
  CHECK(counts.in_error == 3);
  CHECK(counts.saturated == 1);
  CHECK(counts.unreachable == 1);
  CHECK(counts.baseline == 0);
  CHECK(counts.not_read == 0);
  REQUIRE(counts.unreachable_nodes.size() == 1);
  CHECK(counts.unreachable_nodes[0].name == "leaf02");
  CHECK(counts.unreachable_nodes[0].lid == 23);
  CHECK(counts.unreachable_nodes[0].ports == 1);
  CHECK(counts.unreachable_nodes[0].error == "no answer after 4 tries");
}

TEST_CASE("sweep report: the error rate sums every error counter's rate, not traffic") {
  CHECK(error_rate(quiet_port(1)) == 0);
  const poll::PortResult port =
      with_rate(with_rate(with_rate(quiet_port(4), counters::Counter::symbol_errors, 1.0),
                          counters::Counter::rcv_errors, 2.0),
                counters::Counter::xmit_data, 5e8);
  CHECK(error_rate(port) == Approx(3.0));
}

TEST_CASE("sweep report: worst state, the worst ports first by state then error rate") {
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  const SweepResult sweep = mixed_sweep();
  const SweepReportSettings settings = settings_with(thresholds);
  const std::vector<PortVerdict> verdicts = judge_ports(sweep, settings);
  const plugin::Check check = sweep_check(SweepOptions{}, sweep, verdicts, settings, 0);

  CHECK(plugin::effective_state(check) == State::critical);
  CHECK_THAT(check.summary, Catch::StartsWith("4 ports polled in 0.250 s: 3 in error, 0 saturated, "
                                              "1 unreachable (1 node); worst: leaf01[4] <-> "
                                              "spine01[1] "));
  REQUIRE(check.subchecks.size() >= 5);
  // Port 4 (3 errors/s) before port 3 (0.5/s), both CRITICAL, then the WARNING port.
  CHECK_THAT(check.subchecks[0].output, Catch::StartsWith("leaf01[4] <-> spine01[1]"));
  CHECK_THAT(check.subchecks[1].output, Catch::StartsWith("leaf01[3] <-> spine01[1]"));
  CHECK_THAT(check.subchecks[2].output, Catch::StartsWith("leaf01[2] <-> spine01[1]"));
  CHECK(check.subchecks[3].output ==
        "leaf02 unreachable at LID 23 (1 port): no answer after 4 tries");
  CHECK(check.subchecks[3].state == State::warning);
  CHECK(check.subchecks[4].output == "sweep 0.250 s (polling and state 0.125 s)");

  SweepReportSettings one = settings;
  one.worst = 1;
  const plugin::Check short_check = sweep_check(SweepOptions{}, sweep, verdicts, one, 0);
  CHECK_THAT(short_check.subchecks[0].output, Catch::StartsWith("leaf01[4] <-> spine01[1]"));
  CHECK(short_check.subchecks[1].output == "2 more ports not OK (--worst N shows more)");
  CHECK(short_check.subchecks[1].state == State::critical);
}

TEST_CASE("sweep report: a quiet fabric is all OK, and its text says so on the first line") {
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  SweepResult sweep;
  sweep.fabric_ports = 2;
  sweep.duration = 12.5;
  sweep.poll_duration = 10;
  sweep.results = {quiet_port(1), quiet_port(2)};
  const SweepReportSettings settings = settings_with(thresholds);
  const plugin::Check check =
      sweep_check(SweepOptions{}, sweep, judge_ports(sweep, settings), settings, 0);
  CHECK(plugin::effective_state(check) == State::ok);
  CHECK(check.summary == "2 ports polled in 12.5 s: all OK");
  const std::string text = plugin::render_text(check, "IB FABRIC");
  CHECK_THAT(text, Catch::StartsWith("IB FABRIC OK - 2 ports polled in 12.5 s: all OK | "
                                     "ports=2;;;0 ports_polled=2;;;0 ports_error=0;;;0 "));
  CHECK_THAT(text, Catch::Contains(" sweep_time=12.5s;;;0 poll_time=10s;;;0 "));
  CHECK_THAT(text, Catch::Contains("\n\\_[OK] sweep 12.5 s (polling and state 10.0 s)\n"));
}

TEST_CASE("sweep report: a shard names itself and its share of the fabric") {
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  SweepResult sweep;
  sweep.fabric_ports = 10;
  sweep.results = {quiet_port(1), quiet_port(2)};
  SweepOptions options;
  options.shard.index = 2;
  options.shard.count = 4;
  CHECK(shard_label(options) == "shard 2/4");
  CHECK(shard_label(SweepOptions{}).empty());
  const SweepReportSettings settings = settings_with(thresholds);
  const plugin::Check check =
      sweep_check(options, sweep, judge_ports(sweep, settings), settings, 0);
  CHECK_THAT(check.summary, Catch::StartsWith("shard 2/4: 2 of 10 ports, 2 ports polled in "));
}

TEST_CASE("sweep report: a state error many ports share is one line with their count") {
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  SweepResult sweep;
  sweep.fabric_ports = 6;
  sweep.duration = 1;
  const std::string refused = "rrdcached at 10.0.0.1:42217: cannot connect: Connection refused";
  for (PortNumber port = 1; port <= 4; ++port) {
    poll::PortResult r = quiet_port(port);
    r.state_error = "0x0002c90300001234/port" + std::to_string(port) + ".rrd: " + refused;
    sweep.results.push_back(r);
  }
  poll::PortResult own = quiet_port(5);
  own.state_error = "0x0002c90300001234/port5.rrd: not an ibpm port RRD (no source symbol_errors)";
  sweep.results.push_back(own);
  sweep.results.push_back(with_rate(quiet_port(6), counters::Counter::symbol_errors, 0.5));
  const SweepReportSettings settings = settings_with(thresholds);
  const plugin::Check check =
      sweep_check(SweepOptions{}, sweep, judge_ports(sweep, settings), settings, 0);
  const std::string text = plugin::render_text(check, "IB FABRIC");
  INFO(text);
  CHECK(plugin::effective_state(check) == State::critical);  // port 6
  // The store's trouble is named first: every other verdict is in doubt while it lasts.
  CHECK_THAT(check.summary, Catch::Contains("; worst: 4 ports: state file: " + refused +
                                            " (0x0002c90300001234/port1.rrd and 3 more)"));
  CHECK_THAT(text,
             Catch::Contains("\\_[UNKNOWN] 4 ports: state file: " + refused +
                             " (0x0002c90300001234/port1.rrd, 0x0002c90300001234/port2.rrd, "
                             "0x0002c90300001234/port3.rrd, 0x0002c90300001234/port4.rrd)\n"));
  // Once: no port of the four has a line of its own; the port with its own cause keeps its line.
  CHECK_THAT(text, !Catch::Contains("leaf01[1] <-> spine01[1]: state file"));
  CHECK_THAT(text, Catch::Contains("leaf01[5] <-> spine01[1]: state file: 0x0002c90300001234/"
                                   "port5.rrd: not an ibpm port RRD"));
  CHECK_THAT(text, Catch::Contains("leaf01[6] <-> spine01[1]"));
}

TEST_CASE(
    "sweep report: a flap seen by the far end read a moment later is reported in that sweep") {
  // cn0001[1] <-> leaf01[1]: the host's end (the lower GUID) speaks for the cable; the leaf port,
  // read 5 ms after it, saw the third down of the last two minutes.
  constexpr double kNow = 1714564800.25;
  poll::PortResult leaf = quiet_port(1, "leaf01", "cn0001[1]");
  poll::PortResult host = quiet_port(1, "cn0001", "leaf01[1]");
  own_target(host).node = 0x0002c90300000010;
  own_target(host).type = NodeType::ca;
  own_target(leaf).remote = PortRef{host.target->node, 1};
  own_target(leaf).remote_type = NodeType::ca;
  own_target(host).remote = PortRef{leaf.target->node, 1};
  test::own_record(host).time = kNow;
  test::own_record(leaf).time = kNow + 0.005;
  leaf.errors.since = kNow - 600;
  for (double end : {kNow - 120, kNow - 60, kNow + 0.005})
    leaf.errors.intervals.push_back({end, 10, {0, 0, 1}});
  SweepResult sweep;
  sweep.results = {host, leaf};
  const thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  const std::vector<PortVerdict> verdicts = judge_ports(sweep, settings_with(thresholds));
  REQUIRE(verdicts.size() == 2);
  CHECK(verdicts[0].state == State::warning);  // to a host: WARNING by default
  CHECK_THAT(verdicts[0].reason(), Catch::Contains("flapping: went down 3 times"));
  CHECK(verdicts[1].state == State::ok);  // one alert for the cable
}
