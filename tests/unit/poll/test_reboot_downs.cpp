// SPDX-License-Identifier: MIT
// A link down seen together with a reboot of either end (its counters starting from zero, or the
// node not answering) is taken out of the history, so reboots never add up to a flapping cable.
#include <catch2/catch.hpp>

#include "link_quality/flapping.hpp"
#include "poll/reboot_downs.hpp"
#include "support/port_results.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

constexpr double kNow = 1714564800.25;

// Two switch ports cabled to each other (leaf01[7] <-> spine01[1]), each with one down in this
// run's interval and `earlier` downs before it.
std::vector<poll::PortResult> cable_with_downs(int earlier) {
  poll::PortResult near = quiet_port(7);
  poll::PortResult far = quiet_port(1, "spine01", "leaf01[7]");
  own_target(far).node = 0x0002c90300005678;
  own_target(near).remote = PortRef{far.target->node, 1};
  own_target(far).remote = PortRef{near.target->node, 7};
  for (poll::PortResult* end : {&near, &far}) {
    own_record(*end).time = kNow;
    end->errors.since = kNow - 3000;
    for (int k = earlier; k >= 1; --k)
      end->errors.intervals.push_back({kNow - 600.0 * k, 10, {0, 0, 1}});
    end->errors.intervals.push_back({kNow, 10, {2, 0, 1}});  // symbol errors too
  }
  return {near, far};
}

double downs(const poll::PortResult& r) {
  return state::errors_within(r.errors, state::kLinkDownedIndex, kNow - 3600, kNow);
}

}  // namespace

TEST_CASE("A down with both ends answering and no reset stays a down") {
  auto results = cable_with_downs(2);
  poll::forget_reboot_downs(results);
  CHECK(downs(results[0]) == 3);
  CHECK(downs(results[1]) == 3);
  const auto status = link_quality::flap_status(results[0].errors, &results[1].errors, kNow, {});
  CHECK(status.flapping);
}

TEST_CASE("A down in the run where the far end's counters restarted from zero is its reboot") {
  auto results = cable_with_downs(0);
  results[1].rates.reset_seen = counters::counter_bit(counters::Counter::xmit_data);
  poll::forget_reboot_downs(results);
  // Both ends: the far end's own reset, the near end's far end reset.
  CHECK(downs(results[0]) == 0);
  CHECK(downs(results[1]) == 0);
  // The interval's other errors are kept.
  REQUIRE(results[0].errors.intervals.size() == 1);
  CHECK(results[0].errors.intervals[0].errors[0] == 2);
}

TEST_CASE("A down in the run where the far end did not answer is the node going away") {
  auto results = cable_with_downs(1);
  results[1].sample.answered = false;
  poll::forget_reboot_downs(results);
  CHECK(downs(results[0]) == 1);  // the earlier down stays
}

TEST_CASE("Three reboots of one node within the window do not make its cable flap") {
  // The history as three runs leave it, each seeing the node's counters start from zero.
  poll::PortResult near = quiet_port(7);
  own_target(near).remote = PortRef{0x0002c90300005678, 1};
  near.errors.since = kNow - 3000;
  for (int reboot = 0; reboot < 3; ++reboot) {
    const double end = kNow - 600.0 * (2 - reboot);
    own_record(near).time = end;
    near.rates.reset_seen = counters::counter_bit(counters::Counter::link_downed);
    near.errors.intervals.push_back({end, 10, {0, 0, 1}});
    std::vector<poll::PortResult> run{near};
    poll::forget_reboot_downs(run);
    near = run[0];
  }
  CHECK(near.errors.intervals.empty());
  CHECK_FALSE(link_quality::flap_status(near.errors, nullptr, kNow, {}).flapping);
}

TEST_CASE("A far end not polled in this run (another shard) leaves the near end's downs alone") {
  auto results = cable_with_downs(0);
  std::vector<poll::PortResult> near_only{results[0]};
  poll::forget_reboot_downs(near_only);
  CHECK(downs(near_only[0]) == 1);
}

namespace {

// A host's cable, leaf01[1] <-> cn0001[1], swept every minute: each run extends both ends'
// histories as the poller does, then applies the reboot rule.
struct HostCable {
  poll::PortResult leaf = quiet_port(1, "leaf01", "cn0001[1]");
  poll::PortResult host = quiet_port(1, "cn0001", "leaf01[1]");
  double last = kNow;

  HostCable() {
    own_target(host).node = 0x0002c90300000010;
    own_target(host).type = NodeType::ca;
    own_target(leaf).remote = PortRef{host.target->node, 1};
    own_target(leaf).remote_type = NodeType::ca;
    own_target(host).remote = PortRef{leaf.target->node, 1};
    for (poll::PortResult* end : {&leaf, &host}) {
      own_record(*end).time = kNow;
      end->errors.since = kNow;
    }
  }

  // One sweep a minute after the last: `downs` seen on the leaf port, the host's counters from
  // zero (its data and packet counters lower than in the last sweep) or not.
  void sweep(std::uint32_t downs, bool host_reset) {
    const double now = last + 60;
    for (poll::PortResult* end : {&leaf, &host}) {
      own_record(*end).time = now;
      end->rates.interval = now - last;
      end->rates.reset_seen = 0;
    }
    if (host_reset)
      host.rates.reset_seen = counters::counter_bit(counters::Counter::xmit_data) |
                              counters::counter_bit(counters::Counter::rcv_data);
    leaf.errors = state::extend(leaf.errors, true, last, now, {0, 0, downs}, 7200);
    host.errors = state::extend(host.errors, true, last, now, {0, 0, 0}, 7200);
    std::vector<poll::PortResult> run{leaf, host};
    poll::forget_reboot_downs(run);
    leaf = run[0];
    host = run[1];
    last = now;
  }

  // As the sweep judges the cable (the host's end, the lower GUID, speaks for it).
  bool flapping() const {
    return link_quality::flap_status(host.errors, &leaf.errors, last, {}).flapping;
  }
};

}  // namespace

TEST_CASE("A host rebooted three times with traffic between never makes its cable flap") {
  // Each reboot: the leaf port's link went down while the host still answered with its old
  // counters (its driver going away), and the next sweep found its counters back at zero.
  HostCable cable;
  for (int reboot = 1; reboot <= 3; ++reboot) {
    INFO("reboot " << reboot);
    cable.sweep(0, false);  // traffic
    CHECK_FALSE(cable.flapping());
    cable.sweep(1, false);  // the link goes down as the host goes away
    cable.sweep(0, true);   // the host back, its counters from zero
    CHECK_FALSE(cable.flapping());
    cable.sweep(0, false);  // traffic again
    CHECK_FALSE(cable.flapping());
  }
  for (int later = 1; later <= 5; ++later) {
    INFO(later << " sweeps after the third reboot");
    cable.sweep(0, false);
    CHECK_FALSE(cable.flapping());
  }
  CHECK(state::errors_within(cable.leaf.errors, state::kLinkDownedIndex, kNow, cable.last) == 0);
}

TEST_CASE("A host rebooted three times, each down seen with its reset, never flaps later") {
  HostCable cable;
  for (int reboot = 1; reboot <= 3; ++reboot) {
    cable.sweep(0, false);
    cable.sweep(1, true);
    CHECK_FALSE(cable.flapping());
  }
  for (int later = 1; later <= 5; ++later) {
    cable.sweep(0, false);
    CHECK_FALSE(cable.flapping());
  }
}

TEST_CASE("Downs of a host's cable with its counters never reset are a flap, reboot or not") {
  HostCable cable;
  cable.sweep(1, true);  // a reboot first: not counted
  for (int down = 1; down <= 3; ++down) {
    cable.sweep(0, false);
    cable.sweep(1, false);
  }
  CHECK(cable.flapping());
  // Held through later sweeps.
  for (int later = 1; later <= 3; ++later) {
    cable.sweep(0, false);
    CHECK(cable.flapping());
  }
}
