// SPDX-License-Identifier: MIT
// port_subcheck and port_perfdata: the state and text of one polled port.
#include <catch2/catch.hpp>
#include <memory>

#include "poll/port_report.hpp"

using namespace ibpm;
using ibpm::plugin::State;
using ibpm::poll::PortResult;
using ibpm::poll::ReportSettings;

namespace {

std::size_t rate_index(counters::Counter c) { return static_cast<std::size_t>(c); }

LinkState live_port(PortState state, LinkWidth width = LinkWidth::x4) {
  LinkState p;
  p.state = state;
  if (state == PortState::active) {
    p.width = width;
    p.speed = LinkSpeed::hdr;
  }
  return p;
}

// leaf01[7] <-> spine01[1], answered, active 4x HDR, every rate 0 over 10 s.
PortResult healthy() {
  poll::PortTarget target;
  target.node = 0x100;
  target.type = NodeType::sw;
  target.port = 7;
  target.lid = 2;
  target.name = "leaf01[7]";
  target.remote_name = "spine01[1]";
  target.width = LinkWidth::x4;
  target.speed = LinkSpeed::hdr;
  PortResult r;
  r.target = std::make_shared<const poll::PortTarget>(std::move(target));
  r.sample.answered = true;
  r.sample.live = live_port(PortState::active);
  r.rates.interval = 10;
  for (auto&& rate : r.rates.rate) rate = counters::Rate{0, false};
  return r;
}

struct Settings {
  thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  ReportSettings report;
  Settings() { report.thresholds = &thresholds; }
};

}  // namespace

TEST_CASE("port_subcheck of a healthy port is OK and names both cable ends") {
  Settings s;
  const auto port = poll::port_subcheck(healthy(), s.report);
  CHECK(plugin::effective_state(port) == State::ok);
  CHECK(port.output.rfind("leaf01[7] <-> spine01[1]: 4x HDR", 0) == 0);
  CHECK(port.children.empty());
  CHECK(poll::cable_name(*healthy().target) == "leaf01[7] <-> spine01[1]");
}

TEST_CASE("port_subcheck of a port that is down is CRITICAL") {
  Settings s;
  PortResult r = healthy();
  r.sample.live = live_port(PortState::down);
  const auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::critical);
  CHECK(port.output.find("port Down") != std::string::npos);
}

TEST_CASE("port_subcheck while collecting the baseline takes the first-run state") {
  Settings s;
  PortResult r = healthy();
  r.rates = {};
  r.rates.baseline = true;
  auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::ok);
  CHECK(port.output.find("collecting baseline") != std::string::npos);
  s.report.first_run = State::unknown;
  port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::unknown);
  CHECK(poll::port_perfdata(r, s.thresholds).empty());
}

TEST_CASE("port_subcheck says a new baseline was taken because the clock stepped back") {
  Settings s;
  PortResult r = healthy();
  r.rates = {};
  r.rates.baseline = true;
  r.clock_back = 3599.6;
  auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::ok);
  CHECK(port.output ==
        "leaf01[7] <-> spine01[1]: 4x HDR, clock stepped back: previous sample 3600 s ahead, new "
        "baseline");
  CHECK(poll::port_perfdata(r, s.thresholds).empty());
  r.clock_back = 0.25;
  port = poll::port_subcheck(r, s.report);
  CHECK(port.output.find("previous sample 0.25 s ahead, new baseline") != std::string::npos);
}

TEST_CASE("port_subcheck of an unreachable port is UNKNOWN with the reason") {
  Settings s;
  PortResult r = healthy();
  r.sample = {};
  r.sample.error = "PortCounters: no answer after 4 tries";
  const auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::unknown);
  CHECK(port.output ==
        "leaf01[7] <-> spine01[1]: unreachable at LID 2 (PortCounters: no answer after 4 tries)");
  CHECK(poll::port_perfdata(r, s.thresholds).empty());
}

TEST_CASE("port_subcheck with an unreadable state file is UNKNOWN naming it") {
  Settings s;
  PortResult r = healthy();
  r.state_error = "/var/lib/ibpm/0x0000000000000100/port7.rrd: not an RRD file";
  const auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::unknown);
  CHECK(port.output.find("/var/lib/ibpm/0x0000000000000100/port7.rrd") != std::string::npos);
}

TEST_CASE("port_subcheck alerts on a rate above its threshold") {
  Settings s;
  PortResult r = healthy();
  r.rates.rate[rate_index(counters::Counter::symbol_errors)] =
      counters::Rate{20.0 / 3600, false};  // 20/h: warning
  auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::warning);
  REQUIRE(port.children.size() == 1);
  CHECK(port.children[0].output == "symbol_errors 20/h (warning 10/h, critical 100/h)");

  r.rates.rate[rate_index(counters::Counter::symbol_errors)] =
      counters::Rate{1.0, true};  // a bound of 1/s: critical
  r.rates.saturated = counters::counter_bit(counters::Counter::symbol_errors);
  port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::critical);
  REQUIRE(port.children.size() == 2);
  CHECK(port.children[0].output.rfind("symbol_errors >= 1/s", 0) == 0);
  CHECK(port.children[1].output.find("saturated") != std::string::npos);
}

TEST_CASE("port_subcheck warns about a link narrower than the topology saw") {
  Settings s;
  PortResult r = healthy();
  r.sample.live = live_port(PortState::active, LinkWidth::x1);
  const auto port = poll::port_subcheck(r, s.report);
  CHECK(plugin::effective_state(port) == State::warning);
  REQUIRE(port.children.size() == 1);
  CHECK(port.children[0].output.find("link degraded") != std::string::npos);
}

TEST_CASE("port_perfdata gives data rates in octets per second") {
  Settings s;
  PortResult r = healthy();
  r.rates.rate[rate_index(counters::Counter::xmit_data)] = counters::Rate{100, false};  // words/s
  r.rates.rate[rate_index(counters::Counter::symbol_errors)] = counters::Rate{0.5, false};
  r.rates.xmit_util_pct = 12.5;
  const auto items = poll::port_perfdata(r, s.thresholds, "p7_");
  auto find = [&](const std::string& label) -> const plugin::Perfdata* {
    for (const auto& p : items)
      if (p.label == label) return &p;
    return nullptr;
  };
  REQUIRE(find("p7_xmit_data"));
  CHECK(find("p7_xmit_data")->value == Approx(400));
  REQUIRE(find("p7_symbol_errors"));
  CHECK(find("p7_symbol_errors")->value == Approx(0.5));
  REQUIRE(find("p7_xmit_util"));
  CHECK(find("p7_xmit_util")->uom == "%");
}
