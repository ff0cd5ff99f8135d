// SPDX-License-Identifier: MIT
// Bit error ratios on a live fabric: the same symbol errors over the same time are OK on a 4x
// link and an alert on a cable trained to 1x, and the ratio printed is the injected errors over
// the bits the link signalled in the window (lanes x line rate x window), computed here from the
// injected numbers.
//
// The window is 40 s (--ber-windows 40) so the test need not wait 12 minutes: a baseline, a
// sample 6 s later, the errors, a sample, then a run 43 s after the baseline: its window is
// covered (40 s of history) and holds the whole interval with the errors (it starts before the
// second sample).
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/rrd_files.hpp"
#include "support/simulator.hpp"

using namespace ibpm;
using namespace ibpm::test;

namespace {

constexpr int kErrors = 400;
constexpr double kWindow = 40;
// 4x HDR and 1x HDR over 40 s: 8.25e12 and 2.06e12 bits; 400 errors are 4.8e-11 and 1.9e-10.
// A warning above 1e-10 (on the lower bound, 1.76e-10 on the 1x link) splits them.
const std::vector<std::string> kOptions{
    "--ber-windows",   "40",     "--warn",          "symbol_ber=1e-10", "--crit",
    "symbol_ber=1e-8", "--warn", "symbol_errors=-", "--crit",           "symbol_errors=-"};

double ber_in(const std::string& out) {
  std::smatch m;
  const std::regex re("symbol_ber ([0-9.e+-]+) over 40 s \\(([0-9]+) errors");
  if (!std::regex_search(out, m, re)) return -1;
  return std::stod(m[1]);
}

}  // namespace

TEST_CASE("the same symbol errors are a 4x worse bit error ratio on a 1x cable") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start({{"leaf01", 2, LinkWidth::x1, std::nullopt, true}});
  StateDir wide("ber-4x"), narrow("ber-1x");
  struct Port {
    StateDir& state;
    std::string node;
    int port;
    int lanes;
  };
  Port ports[] = {{wide, "leaf01", 1, 4}, {narrow, "leaf01", 2, 1}};
  auto run = [&](const Port& p) {
    std::vector<std::string> args{"--state-dir", p.state.path(), "-n",
                                  p.node,        "-p",           std::to_string(p.port)};
    args.insert(args.end(), kOptions.begin(), kOptions.end());
    return live.run("check_ib_port", args);
  };
  const auto start = std::chrono::steady_clock::now();
  for (const Port& p : ports) REQUIRE(run(p).exit_code == 0);  // baselines
  std::this_thread::sleep_for(std::chrono::seconds(6));
  for (const Port& p : ports) {
    const ProcessRun second = run(p);
    INFO(second.out);
    REQUIRE(second.exit_code == 0);
    CHECK(second.has("symbol_ber over 40 s needs 40 s of samples, have"));  // not judged yet
  }
  for (const Port& p : ports)
    live.console("PerformanceSet \"" + p.node + "\"[" + std::to_string(p.port) +
                 "] PortCounters.SymbolErrorCounter=" + std::to_string(kErrors));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  for (const Port& p : ports) REQUIRE(run(p).exit_code == 0);  // the errors' interval
  std::this_thread::sleep_until(start + std::chrono::seconds(43));

  for (const Port& p : ports) {
    const ProcessRun last = run(p);
    INFO(p.node << "[" << p.port << "]: " << last.out);
    CHECK(last.has(p.lanes == 4 ? "4x HDR" : "1x HDR"));
    const double expected = kErrors / (p.lanes * 51.5625e9 * kWindow);
    const double printed = ber_in(last.out);
    CHECK(relative_difference(printed, expected) < 0.05);  // printed with two digits
    const auto perf = perf_value(last, "symbol_ber_40s");
    REQUIRE(perf);
    CHECK(relative_difference(*perf, expected) < 1e-6);
    CHECK(last.exit_code == (p.lanes == 4 ? 0 : 1));
    if (p.lanes == 1) CHECK(last.has("(warning 1e-10, critical 1e-08, on the lower bound)"));
  }
}
