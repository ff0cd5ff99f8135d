// SPDX-License-Identifier: MIT
// check_ib_topology against a live simulated fabric: OK when unchanged, CRITICAL naming both ends
// when a cable is pulled, OK again when it is back, WARNING for a link that trained narrower.
#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>

#include "sim/degrade.hpp"
#include "sim/simulated_fabric.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"

using namespace ibpm;
using ibpm::test::bin;

namespace {

struct CheckRun {
  int exit_code;
  std::string out;
  std::string first_line() const { return out.substr(0, out.find('\n')); }
};

CheckRun check(sim::SimulatedFabric& fabric, std::vector<std::string> args) {
  args.insert(args.begin(), bin("check_ib_topology"));
  CheckRun run{0, {}};
  run.exit_code = fabric.run_client(args, &run.out);
  return run;
}

}  // namespace

TEST_CASE("check_ib_topology follows a cable pulled and put back") {
  IBPM_REQUIRE_SIMULATOR();
  sim::FatTree tree = test::small_tree(32, 8);
  auto fabric = sim::SimulatedFabric::start_text(tree.net_file());
  std::string baseline = (fabric.work_dir() / "baseline.cache").string();

  CheckRun written = check(fabric, {"--write-baseline", baseline});
  REQUIRE(written.exit_code == 0);
  CheckRun same = check(fabric, {"--baseline", baseline});
  CHECK(same.exit_code == 0);
  CHECK(same.first_line().find("as in the baseline") != std::string::npos);

  // A leaf uplink: both switches stay reachable, so exactly this cable is lost.
  const std::string leaf = tree.leaves().front();
  const int uplink = tree.host_ports_per_leaf + 1;
  auto peer = tree.topology.peer({*tree.topology.find_node(leaf), uplink});
  REQUIRE(peer);
  const std::string far_end = tree.topology.port_name(*peer);
  fabric.console("Unlink \"" + leaf + "\"[" + std::to_string(uplink) + "]");

  CheckRun lost = check(fabric, {"--baseline", baseline});
  CHECK(lost.exit_code == 2);
  CHECK(lost.first_line().rfind("IB TOPOLOGY CRITICAL - 1 link lost", 0) == 0);
  CHECK(lost.out.find("link lost: " + far_end + " <-> " + leaf + "[" + std::to_string(uplink) +
                      "]") != std::string::npos);
  CHECK(lost.first_line().find("lost_links=1") != std::string::npos);

  // A host's cable: the host disappears from the fabric; it is named with its leaf port.
  const std::string host = tree.hosts.back();
  fabric.console("Unlink \"" + host + "\"[1]");
  CheckRun missing = check(fabric, {"--baseline", baseline});
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.find("CA " + host) != std::string::npos);
  CHECK(missing.out.find(tree.leaves().back() + "[") != std::string::npos);

  fabric.console("ReLink \"" + leaf + "\"[" + std::to_string(uplink) + "]");
  fabric.console("ReLink \"" + host + "\"[1]");
  CheckRun back = check(fabric, {"--baseline", baseline});
  CHECK(back.exit_code == 0);
  CHECK(back.first_line().find("as in the baseline") != std::string::npos);
}

TEST_CASE("check_ib_topology warns about a link that trained narrower than the baseline") {
  IBPM_REQUIRE_SIMULATOR();
  sim::FatTree tree = test::small_tree(32, 8);
  std::string baseline;
  auto healthy = sim::SimulatedFabric::start_text(tree.net_file());
  baseline = (healthy.work_dir() / "baseline.cache").string();
  REQUIRE(check(healthy, {"--write-baseline", baseline}).exit_code == 0);

  // The same fabric (same GUIDs: ibsim numbers nodes in file order) with one uplink at 1x.
  const std::string leaf = tree.leaves().front();
  const int uplink = tree.host_ports_per_leaf + 1;
  sim::FatTree degraded = tree;
  sim::degrade_link(degraded.topology, {leaf, uplink, LinkWidth::x1, std::nullopt, true});
  auto sick = sim::SimulatedFabric::start_text(degraded.net_file());

  CheckRun run = check(sick, {"--baseline", baseline});
  CHECK(run.exit_code == 1);
  CHECK(run.first_line().rfind("IB TOPOLOGY WARNING - 1 link degraded", 0) == 0);
  CHECK(run.out.find(leaf + "[" + std::to_string(uplink) + "]") != std::string::npos);
  CHECK(run.out.find("runs 1x HDR, expected 4x HDR") != std::string::npos);
  CHECK(run.first_line().find("degraded_links=1") != std::string::npos);

  CheckRun tolerated = check(sick, {"--baseline", baseline, "--degraded", "ok"});
  CHECK(tolerated.exit_code == 0);
}

TEST_CASE("a baseline with one byte changed gives UNKNOWN with a reason, in bounded time") {
  // Issue 16: this byte of a 16-host tree's baseline made check_ib_topology grow past 1.2 GB.
  IBPM_REQUIRE_SIMULATOR();
  sim::FatTree tree = test::small_tree(16, 8);
  auto fabric = sim::SimulatedFabric::start_text(tree.net_file());
  const std::string baseline = (fabric.work_dir() / "b.cache").string();
  REQUIRE(check(fabric, {"--write-baseline", baseline}).exit_code == 0);
  {
    std::fstream file(baseline, std::ios::in | std::ios::out | std::ios::binary);
    file.seekp(8929);
    file.put('\x76');
  }
  const auto start = std::chrono::steady_clock::now();
  CheckRun corrupt = check(fabric, {"-t", "5", "--cache", baseline});
  const auto took = std::chrono::steady_clock::now() - start;
  INFO(corrupt.out);
  CHECK(corrupt.exit_code == 3);
  CHECK(corrupt.first_line().rfind("IB TOPOLOGY UNKNOWN - ", 0) == 0);
  CHECK(corrupt.first_line().find("corrupt libibnetdisc cache file") != std::string::npos);
  CHECK(took < std::chrono::seconds(2));
}
