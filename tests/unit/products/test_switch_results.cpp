// SPDX-License-Identifier: MIT
// Every switch's passive result from a sweep: check_ib_node's report of its ports, UNKNOWN when
// not all were read, one result per switch split across shards (from the shard reading most of
// it, naming the ports other shards read), and a hostile
// NodeDescription that cannot forge a second result in the spool.
#include <catch2/catch.hpp>
#include <sstream>

#include "products/monitoring_names.hpp"
#include "products/switch_results.hpp"
#include "support/port_results.hpp"
#include "two_switches.hpp"

using namespace ibpm;
using namespace ibpm::products;
using namespace ibpm::test;

namespace {

const std::string kHostile = "leaf;01\nhost_name=spine01\nreturn_code=0";

// A leaf whose ports 1 and 2 go to a spine, and the sweep's results for the leaf's `ports`.
sweep::SweepResult swept(const std::vector<poll::PortResult>& ports) {
  sweep::SweepResult sweep;
  Fabric& fabric = sweep.topology.fabric;
  add_two_switches(fabric, kHostile, "spine01", 8);
  for (PortNumber p : {1, 2}) {
    fabric.port({kLeaf, p}).lid = 17;
    fabric.port({kSpine, p}).lid = 18;
  }
  sweep.results = ports;
  sweep.thresholds = thresholds::RateThresholds::defaults();
  return sweep;
}

std::size_t lines_starting(const std::string& text, const std::string& prefix) {
  std::size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST_CASE("a switch whose ports were all read gets check_ib_node's report of them") {
  const sweep::SweepResult sweep =
      swept({quiet_port(1), with_rate(quiet_port(2), counters::Counter::symbol_errors, 50)});
  const SwitchResults results = switch_results({}, sweep, {});
  REQUIRE(results.results.size() == 1);  // the spine's ports were not in the sweep
  const PassiveResult& leaf = results.results[0];
  INFO(leaf.output);
  CHECK(leaf.host == object_name(kHostile));
  CHECK(leaf.host.find('\n') == std::string::npos);
  CHECK(leaf.host.find(';') == std::string::npos);
  CHECK(leaf.service == "ib-node");
  CHECK(leaf.state == plugin::State::critical);
  CHECK(leaf.output.rfind("IB NODE CRITICAL - ", 0) == 0);
  CHECK(leaf.output.find("2 ports, 1 not OK; worst: leaf01[2]") != std::string::npos);
  CHECK(leaf.output.find(" p2_symbol_errors=50;") != std::string::npos);

  // In the spool, one result: the description's line feeds and ';' forge nothing.
  const std::string text = checkresult_text(results.results, 1, 2, 3);
  CHECK(lines_starting(text, "host_name=") == 1);
  CHECK(lines_starting(text, "return_code=") == 1);
}

TEST_CASE("a switch with a port not read is UNKNOWN and says why") {
  const SwitchResults results = switch_results({}, swept({quiet_port(1), unanswered_port(2)}), {});
  REQUIRE(results.results.size() == 1);
  CHECK(results.results[0].state == plugin::State::unknown);
  CHECK(results.results[0].output.find("1 of 2 ports not read by the sweep (leaf01[2]: no answer "
                                       "after 4 tries)") != std::string::npos);
}

TEST_CASE("a switch split across shards gets one result, from the shard reading most of it") {
  // Pins put the leaf's ports 1 and 2 on shard 1 and port 3 on shard 2; every shard's sweep
  // knows the whole split.
  const delegation::SplitNodes split{{kLeaf, {{1, 1}, {2, 1}, {3, 2}}}};
  const auto shard_sweep = [&](unsigned index, const std::vector<poll::PortResult>& ports) {
    sweep::SweepResult sweep = swept(ports);
    sweep.topology.fabric.connect({kLeaf, 3}, {kSpine, 3});
    sweep.split_nodes = split;
    sweep::SweepOptions options;
    options.shard = {index, 2};
    return switch_results(options, sweep, {});
  };
  const SwitchResults first = shard_sweep(
      1, {quiet_port(1), with_rate(quiet_port(2), counters::Counter::symbol_errors, 50)});
  const SwitchResults second = shard_sweep(2, {quiet_port(3)});
  // Exactly one result for the leaf across the shards: shard 1's, for the ports it read.
  REQUIRE(first.results.size() == 1);
  CHECK(first.elsewhere == 0);
  CHECK(second.results.empty());
  CHECK(second.elsewhere == 1);
  const PassiveResult& leaf = first.results[0];
  INFO(leaf.output);
  CHECK(leaf.state == plugin::State::critical);
  CHECK(leaf.output.rfind("IB NODE CRITICAL - ", 0) == 0);
  CHECK(leaf.output.find(": 2 ports, 1 not OK; worst: leaf01[2]") != std::string::npos);
  CHECK(leaf.output.find("; ports 3 read by shard 2 |") != std::string::npos);
  CHECK(leaf.output.find(" p2_symbol_errors=50;") != std::string::npos);
  CHECK(leaf.output.find("p3_") == std::string::npos);  // shard 2's port is not in it
}

TEST_CASE("a switch split evenly gets its result from the lowest shard") {
  const delegation::SplitNodes split{{kLeaf, {{1, 2}, {2, 1}}}};
  for (unsigned index : {1u, 2u}) {
    sweep::SweepResult sweep = swept({quiet_port(index == 1 ? 2 : 1)});
    sweep.split_nodes = split;
    sweep::SweepOptions options;
    options.shard = {index, 2};
    const SwitchResults results = switch_results(options, sweep, {});
    CHECK(results.results.size() == (index == 1 ? 1u : 0u));
    CHECK(results.elsewhere == (index == 1 ? 0u : 1u));
    if (index == 1)
      CHECK(results.results[0].output.find(": 1 ports, all OK; ports 1 read by shard 2 |") !=
            std::string::npos);
  }
}

TEST_CASE("a switch with a cabled port missing from an unsplit sweep still gets a result") {
  // No split known (no pins): the sweep reports what it read and says what it did not have,
  // rather than leaving the switch's service to go stale.
  const SwitchResults results = switch_results({}, swept({quiet_port(1)}), {});
  REQUIRE(results.results.size() == 1);
  CHECK(results.elsewhere == 0);
  CHECK(results.results[0].state == plugin::State::ok);
  CHECK(results.results[0].output.find(": 1 ports, all OK; ports 2 not in this sweep |") !=
        std::string::npos);
}
