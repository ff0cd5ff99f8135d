// SPDX-License-Identifier: MIT
// A re-poll's PortInfo first: which ports have their counters read, and how a carried port (its
// link unchanged, reported OK) is judged.
#include <catch2/catch.hpp>
#include <memory>

#include "plugin/state.hpp"
#include "poll/port_info_first.hpp"
#include "poll/port_report.hpp"

using namespace ibpm;
using ibpm::plugin::State;

namespace {

LinkState active(LinkWidth width = LinkWidth::x4) {
  LinkState link;
  link.state = PortState::active;
  link.width = width;
  link.speed = LinkSpeed::hdr;
  return link;
}

state::PortMemory memory_of(std::optional<LinkState> live, std::optional<State> reported) {
  state::PortMemory memory;
  memory.live = live;
  if (reported) memory.reported = static_cast<std::uint8_t>(*reported);
  return memory;
}

}  // namespace

TEST_CASE("a re-poll reads the counters of a port whose link changed or was not reported OK") {
  const state::PortMemory ok = memory_of(active(), State::ok);
  CHECK_FALSE(poll::counters_needed(active(), &ok));
  // Changed: down, another width, or not read now.
  LinkState down;
  down.state = PortState::down;
  CHECK(poll::counters_needed(down, &ok));
  CHECK(poll::counters_needed(active(LinkWidth::x1), &ok));
  CHECK(poll::counters_needed(std::nullopt, &ok));
  LinkState fewer_enabled = active();
  fewer_enabled.widths_enabled.insert(LinkWidth::x1);
  CHECK(poll::counters_needed(fewer_enabled, &ok));
  // Nothing to compare with: no memory, no PortInfo in it, no state reported.
  CHECK(poll::counters_needed(active(), nullptr));
  const state::PortMemory no_live = memory_of(std::nullopt, State::ok);
  CHECK(poll::counters_needed(active(), &no_live));
  const state::PortMemory unreported = memory_of(active(), std::nullopt);
  CHECK(poll::counters_needed(active(), &unreported));
  // Reported WARNING (an error rate): its rates are what the report would say again.
  const state::PortMemory warning = memory_of(active(), State::warning);
  CHECK(poll::counters_needed(active(), &warning));
}

TEST_CASE("a carried port is OK on its PortInfo, with no baseline said and no perfdata") {
  poll::PortTarget target;
  target.node = 0x100;
  target.type = NodeType::sw;
  target.port = 7;
  target.lid = 2;
  target.name = "leaf01[7]";
  target.remote_name = "spine01[1]";
  target.width = LinkWidth::x4;
  target.speed = LinkSpeed::hdr;
  poll::PortResult r;
  r.target = std::make_shared<const poll::PortTarget>(std::move(target));
  r.carried = true;
  r.sample.answered = true;
  r.sample.live = active();
  r.rates.baseline = true;
  thresholds::RateThresholds thresholds = thresholds::RateThresholds::defaults();
  poll::ReportSettings settings;
  settings.thresholds = &thresholds;
  settings.first_run = State::warning;  // a baseline would say so: a carried port is not one
  settings.describe_ok_ports = true;
  const plugin::Subcheck port = poll::port_subcheck(r, settings);
  CHECK(plugin::effective_state(port) == State::ok);
  CHECK(port.output ==
        "leaf01[7] <-> spine01[1]: 4x HDR, counters not read: link unchanged since the last "
        "read, reported OK then");
  CHECK(poll::port_perfdata(r, thresholds, "", settings.ber).empty());
  // Its link degraded against the topology since all the same: judged on the PortInfo read.
  r.sample.live = active(LinkWidth::x1);
  CHECK(plugin::effective_state(poll::port_subcheck(r, settings)) == State::warning);
}
