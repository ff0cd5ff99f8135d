// SPDX-License-Identifier: MIT
// The congestion model against cases worked by hand: max-min fair rates, the bottleneck of each
// cut flow, roots and victims, and the lost share of each port
// (min(1 - carried/capacity, sum of the shortfalls waiting there / capacity)).
#include <catch2/catch.hpp>
#include <stdexcept>

#include "sim/congestion_model.hpp"

using namespace ibpm::sim;

namespace {

// Incast into port 4: h1 (port 0) and h2 (port 1) cross uplink 3 and spine downlink 5, h3 (port
// 2) sits on the destination's leaf. Capacities: hosts and the destination port 100, the
// uplink and downlink `trunk`.
std::vector<double> incast_capacities(double trunk) { return {100, 100, 100, trunk, 100, trunk}; }
std::vector<ModelFlow> incast_flows(double demand) {
  return {{demand, {0, 3, 5, 4}}, {demand, {1, 3, 5, 4}}, {demand, {2, 4}}};
}

}  // namespace

TEST_CASE("Congestion model: an incast of three flows shares the port fairly") {
  // Demands 50 each into a port of 100: each gets 100/3; shortfall 50 - 33.33 = 16.67 each.
  const CongestionOutcome out = solve_congestion(incast_capacities(200), incast_flows(50));
  REQUIRE(out.flows.size() == 3);
  for (const FlowOutcome& f : out.flows) {
    CHECK(f.demand == 50);
    CHECK(f.delivered == Approx(100.0 / 3));
    REQUIRE(f.bottleneck);
    CHECK(*f.bottleneck == 4);
  }
  CHECK(out.congested());

  const PortOutcome& root = out.ports[4];
  CHECK(root.role == PortRole::root);
  CHECK(root.offered == Approx(150));
  CHECK(root.carried == Approx(100));
  CHECK(root.utilization() == Approx(1));
  CHECK(root.lost_share == 0);

  // Host ports: 16.67 / 100 waits, under the 2/3 they do not send.
  for (std::size_t host : {0, 1, 2}) {
    CHECK(out.ports[host].role == PortRole::victim);
    CHECK(out.ports[host].lost_share == Approx(1.0 / 6));
  }
  // Uplink and downlink of capacity 200: two shortfalls, 33.33 / 200.
  for (std::size_t trunk : {3, 5}) {
    CHECK(out.ports[trunk].role == PortRole::victim);
    CHECK(out.ports[trunk].carried == Approx(200.0 / 3));
    CHECK(out.ports[trunk].lost_share == Approx(1.0 / 6));
  }
}

TEST_CASE("Congestion model: a port waits at most the time it does not send") {
  // Demands 80, trunks of 100: the uplink carries 66.67 (idle 1/3) while shortfalls of
  // 2 x 46.67 = 93.33 wait there, so its lost share stops at 1/3. A host port: 46.67 / 100.
  const CongestionOutcome out = solve_congestion(incast_capacities(100), incast_flows(80));
  CHECK(out.flows[0].delivered == Approx(100.0 / 3));
  CHECK(out.ports[3].lost_share == Approx(1.0 / 3));
  CHECK(out.ports[5].lost_share == Approx(1.0 / 3));
  CHECK(out.ports[0].lost_share == Approx((80 - 100.0 / 3) / 100));
}

TEST_CASE("Congestion model: a flow cut downstream leaves the remainder of a shared hop") {
  // Ports: 0, 1 hosts (100), 2 a shared uplink (100), 3 a slow downlink (30), 4 a downlink
  // (100). Flow A 0 -> 2 -> 3 wants 100, flow B 1 -> 2 -> 4.
  const std::vector<double> capacity{100, 100, 100, 30, 100};

  SECTION("B wants more than the remainder: it gets the remainder, cut at the shared hop") {
    // Round 1: both rise to 30, the slow downlink fills, A is cut there. Round 2: B alone on the
    // uplink's 40 left: 70, the uplink fills, B is cut there.
    const CongestionOutcome out = solve_congestion(capacity, {{100, {0, 2, 3}}, {100, {1, 2, 4}}});
    CHECK(out.flows[0].delivered == Approx(30));
    CHECK(out.flows[0].bottleneck == std::optional<std::size_t>(3));
    CHECK(out.flows[1].delivered == Approx(70));
    CHECK(out.flows[1].bottleneck == std::optional<std::size_t>(2));
    CHECK(out.ports[3].role == PortRole::root);
    CHECK(out.ports[2].role == PortRole::root);  // full, and B's bottleneck
    CHECK(out.ports[2].lost_share == 0);         // A's shortfall waits there, but it never idles
    CHECK(out.ports[0].role == PortRole::victim);
    CHECK(out.ports[0].lost_share == Approx(0.7));  // min(1 - 0.3, 70 / 100)
    CHECK(out.ports[1].role == PortRole::victim);
    CHECK(out.ports[1].lost_share == Approx(0.3));  // min(1 - 0.7, 30 / 100)
    CHECK(out.ports[4].role == PortRole::clean);
    CHECK(out.ports[4].carried == Approx(70));
  }

  SECTION("B wants less than the remainder: it gets its demand, the shared hop is a victim") {
    const CongestionOutcome out = solve_congestion(capacity, {{100, {0, 2, 3}}, {60, {1, 2, 4}}});
    CHECK(out.flows[0].delivered == Approx(30));
    CHECK(out.flows[1].delivered == 60);
    CHECK_FALSE(out.flows[1].cut());
    CHECK(out.ports[3].role == PortRole::root);
    CHECK(out.ports[2].role == PortRole::victim);
    CHECK(out.ports[2].carried == Approx(90));
    CHECK(out.ports[2].lost_share == Approx(0.1));  // min(1 - 0.9, 70 / 100)
    CHECK(out.ports[1].role == PortRole::clean);    // B is not cut
    CHECK(out.ports[1].lost_share == 0);
  }
}

TEST_CASE("Congestion model: demands under capacity are delivered, nothing waits") {
  const CongestionOutcome out = solve_congestion(
      incast_capacities(200), {{30, {0, 3, 5, 4}}, {30, {1, 3, 5, 4}}, {39.5, {2, 4}}});
  CHECK_FALSE(out.congested());
  CHECK(out.flows[0].delivered == 30);
  CHECK(out.flows[2].delivered == 39.5);
  for (const FlowOutcome& f : out.flows) CHECK_FALSE(f.bottleneck);
  for (const PortOutcome& p : out.ports) {
    CHECK(p.role == PortRole::clean);
    CHECK(p.lost_share == 0);
    CHECK(p.carried == p.offered);
  }
  CHECK(out.ports[4].carried == Approx(99.5));
}

TEST_CASE("Congestion model: a demand equal to what a port carries is not cut") {
  const CongestionOutcome out = solve_congestion({100, 100}, {{100, {0, 1}}});
  CHECK_FALSE(out.congested());
  CHECK(out.ports[1].role == PortRole::clean);
  CHECK(out.ports[1].utilization() == Approx(1));
}

TEST_CASE("Congestion model: two independent incasts keep their victims apart") {
  // The first incast on ports 0..5, a copy of it on ports 6..11.
  std::vector<double> capacity = incast_capacities(200);
  const std::vector<double> second = incast_capacities(200);
  capacity.insert(capacity.end(), second.begin(), second.end());
  std::vector<ModelFlow> flows = incast_flows(50);
  for (ModelFlow f : incast_flows(100)) {
    for (std::size_t& p : f.path) p += 6;
    flows.push_back(f);
  }
  const CongestionOutcome out = solve_congestion(capacity, flows);
  for (std::size_t f = 0; f < 3; ++f)
    CHECK(out.flows[f].bottleneck == std::optional<std::size_t>(4));
  for (std::size_t f = 3; f < 6; ++f) {
    CHECK(out.flows[f].bottleneck == std::optional<std::size_t>(10));
    CHECK(out.flows[f].delivered == Approx(100.0 / 3));
  }
  CHECK(out.ports[4].role == PortRole::root);
  CHECK(out.ports[10].role == PortRole::root);
  // The first incast as before; the second's host ports wait 66.67 / 100, its trunks
  // 133.33 / 200: both exactly the time they do not send.
  CHECK(out.ports[0].lost_share == Approx(1.0 / 6));
  CHECK(out.ports[3].lost_share == Approx(1.0 / 6));
  for (std::size_t p : {6, 7, 8, 9, 11}) CHECK(out.ports[p].role == PortRole::victim);
  CHECK(out.ports[6].lost_share == Approx(2.0 / 3));
  CHECK(out.ports[9].lost_share == Approx(2.0 / 3));
  CHECK(out.ports[11].lost_share == Approx(2.0 / 3));
}

TEST_CASE("Congestion model: a hot uplink is the root, not the downlink it feeds") {
  // Two hosts (ports 0, 1 of 100) send 80 each through uplink 2 (100) and downlink 3 (100) to
  // two hosts behind ports 4 and 5: uplink and downlink fill in the same round; the uplink comes
  // first on the path, the downlink never gets more than it lets through.
  const CongestionOutcome out =
      solve_congestion({100, 100, 100, 100, 100, 100}, {{80, {0, 2, 3, 4}}, {80, {1, 2, 3, 5}}});
  CHECK(out.flows[0].delivered == Approx(50));
  CHECK(out.flows[0].bottleneck == std::optional<std::size_t>(2));
  CHECK(out.ports[2].role == PortRole::root);
  CHECK(out.ports[3].role == PortRole::clean);
  CHECK(out.ports[3].utilization() == Approx(1));
  CHECK(out.ports[0].role == PortRole::victim);
  CHECK(out.ports[0].lost_share == Approx(0.3));  // min(1 - 0.5, 30 / 100)
  CHECK(to_string(out.ports[2].role) == "root");
  CHECK(to_string(out.ports[0].role) == "victim");
  CHECK(to_string(out.ports[3].role) == "clean");
}

TEST_CASE("Congestion model: refuses a path beyond the ports and a negative demand") {
  CHECK_THROWS_AS(solve_congestion({100}, {{10, {0, 1}}}), std::invalid_argument);
  CHECK_THROWS_AS(solve_congestion({100}, {{-1, {0}}}), std::invalid_argument);
  CHECK_THROWS_AS(solve_congestion({0}, {{1, {0}}}), std::invalid_argument);
}
