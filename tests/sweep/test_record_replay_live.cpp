// SPDX-License-Identifier: MIT
// --record and --replay on a live simulated fabric: tshark (Debian's) decodes a recorded sweep to
// the PortCounters and PortCountersExtended that perfquery reads from ibsim; a sweep replayed
// without the simulator (no LD_PRELOAD, no ibsim) gives the live sweep's status, perfdata and long
// output, rates included (the samples carry the recording's times); a replay that lacks an
// answer names it; a file that is no recording is UNKNOWN in one line.
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <map>
#include <regex>
#include <sstream>

#include "support/check_output.hpp"
#include "support/live_fabric.hpp"
#include "support/simulator.hpp"

using namespace ibpm::test;

namespace record_replay_test {

std::vector<std::string> sweep_args(const std::string& state, std::vector<std::string> more) {
  // The topology from the cache file beside the state folder: discovery is not recorded.
  const std::string cache = (std::filesystem::path(state).parent_path() / "fabric.cache").string();
  std::vector<std::string> args{"--state-dir", state, "--no-syslog", "--cache", cache};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// check_ib_fabric ARGS... as a plain process.
std::vector<std::string> with_bin(std::vector<std::string> args) {
  args.insert(args.begin(), bin("check_ib_fabric"));
  return args;
}

// "Name:.....value" lines of perfquery, by name.
std::map<std::string, unsigned long long> perfquery_fields(const std::string& text) {
  std::map<std::string, unsigned long long> fields;
  static const std::regex line(R"(^(\w+):\.+(\d+)$)");
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (std::regex_match(l, m, line)) fields[m[1]] = std::stoull(m[2]);
  }
  return fields;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The fields tshark decodes from the answers of `attribute` from LID `lid` about `port`, as
// name -> value (the last answer).
std::map<std::string, unsigned long long> tshark_fields(const std::string& file, int lid, int port,
                                                        const std::string& attribute,
                                                        const std::string& prefix,
                                                        const std::vector<std::string>& names) {
  std::vector<std::string> argv{
      "tshark",
      "-r",
      file,
      "-Y",
      "infiniband.mad.method == 0x81 && infiniband.lrh.slid == " + std::to_string(lid) +
          " && infiniband.mad.attributeid == " + attribute + " && " + prefix +
          ".portselect == " + std::to_string(port),
      "-T",
      "fields",
      "-E",
      "separator=,"};
  for (const std::string& name : names) {
    argv.push_back("-e");
    argv.push_back(prefix + "." + lower(name));
  }
  const ProcessRun run = run_process(argv, {.env = {}, .stderr_to = Stderr::discarded});
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> lines = run.lines();
  REQUIRE(!lines.empty());
  std::map<std::string, unsigned long long> fields;
  std::istringstream row(lines.back());
  for (const std::string& name : names) {
    std::string value;
    std::getline(row, value, ',');
    fields[name] = std::stoull(value, nullptr, 0);
  }
  return fields;
}

// The output without what depends on the wall clock of the run: the sweep's and the poll's
// durations (status line, perfdata sweep_time and poll_time, the long output's "sweep" line).
std::string time_independent(const std::string& output) {
  std::string text = std::regex_replace(output, std::regex(R"( polled in [0-9.]+ s)"), " polled");
  text = std::regex_replace(text, std::regex(R"((sweep_time|poll_time)=[0-9.e-]+s)"), "$1=T");
  text = std::regex_replace(text, std::regex(R"(sweep [0-9.]+ s \(polling and state [0-9.]+ s\))"),
                            "sweep T");
  return text;
}

}  // namespace record_replay_test

using namespace record_replay_test;

TEST_CASE("tshark decodes a recorded sweep to the counters perfquery reads") {
  IBPM_REQUIRE_SIMULATOR();
  if (find_program("tshark").empty()) IBPM_SKIP("tshark not installed (apt-get install tshark)");
  LiveFabric live = LiveFabric::start();
  TempDir dir("record-tshark");
  const std::string state = dir / "state";
  REQUIRE(live.fabric.run_client({"ibnetdiscover", "--cache", dir / "fabric.cache"}) == 0);
  for (const char* set :
       {"PortCounters.SymbolErrorCounter=17", "PortCounters.LinkDownedCounter=3",
        "PortCounters.PortRcvErrors=5", "PortCounters.PortXmitDiscards=9",
        "PortCounters.VL15Dropped=2", "PortCounters.PortXmitWait=1234",
        "PortCounters.PortXmitData=100000000", "PortCountersExtended.PortXmitData=1000000000000",
        "PortCountersExtended.PortRcvPkts=77777777"})
    live.console(std::string("PerformanceSet \"leaf03\"[2] ") + set);
  const std::string record = dir / "sweep.pcap";
  const ProcessRun sweep = live.run("check_ib_fabric", sweep_args(state, {"--record", record}));
  INFO(sweep.out << sweep.err);
  REQUIRE(sweep.exit_code != 3);
  const int lid = discover(live.fabric).lids.at("leaf03");
  std::string basic_text, extended_text;
  REQUIRE(live.fabric.run_client({"perfquery", std::to_string(lid), "2"}, &basic_text) == 0);
  REQUIRE(live.fabric.run_client({"perfquery", "-x", std::to_string(lid), "2"}, &extended_text) ==
          0);
  const auto basic = perfquery_fields(basic_text);
  const auto extended = perfquery_fields(extended_text);

  const std::vector<std::string> errors{"SymbolErrorCounter",
                                        "LinkErrorRecoveryCounter",
                                        "LinkDownedCounter",
                                        "PortRcvErrors",
                                        "PortRcvRemotePhysicalErrors",
                                        "PortRcvSwitchRelayErrors",
                                        "PortXmitDiscards",
                                        "PortXmitConstraintErrors",
                                        "PortRcvConstraintErrors",
                                        "LocalLinkIntegrityErrors",
                                        "ExcessiveBufferOverrunErrors",
                                        "VL15Dropped"};
  const std::vector<std::string> traffic{"PortXmitData", "PortRcvData", "PortXmitPkts",
                                         "PortRcvPkts"};
  std::vector<std::string> all = errors;
  all.insert(all.end(), traffic.begin(), traffic.end());
  const auto decoded = tshark_fields(record, lid, 2, "0x0012", "infiniband.portcounters", all);
  for (const std::string& name : errors) {
    INFO(name);
    CHECK(decoded.at(name) == basic.at(name));
  }
  CHECK(decoded.at("SymbolErrorCounter") == 17);
  CHECK(decoded.at("VL15Dropped") == 2);
  // ibsim adds the MADs it carries to the traffic counters: a host's queries may cross this
  // port between the sweep's read and perfquery's (a few hundred words at most here).
  for (const std::string& name : traffic) {
    INFO(name);
    CHECK(decoded.at(name) <= basic.at(name));
    CHECK(decoded.at(name) + 4096 >= basic.at(name));
  }
  CHECK(decoded.at("PortXmitData") >= 100000000);
  const auto decoded_x =
      tshark_fields(record, lid, 2, "0x001d", "infiniband.portcounters_ext", traffic);
  for (const std::string& name : traffic) {
    INFO(name);
    CHECK(decoded_x.at(name) <= extended.at(name));
    CHECK(decoded_x.at(name) + 4096 >= extended.at(name));
  }
  CHECK(decoded_x.at("PortXmitData") >= 1000000000000ULL);
  CHECK(decoded_x.at("PortRcvPkts") >= 77777777);
}

TEST_CASE("A sweep replayed without the simulator gives the live sweep's output") {
  IBPM_REQUIRE_SIMULATOR();
  TempDir dir("record-replay");
  const std::string live_state = dir / "live";
  const std::string replay_state = dir / "replay";
  std::vector<ProcessRun> live_runs;
  {
    LiveFabric live = LiveFabric::start();
    REQUIRE(live.fabric.run_client({"ibnetdiscover", "--cache", dir / "fabric.cache"}) == 0);
    live_runs.push_back(
        live.run("check_ib_fabric", sweep_args(live_state, {"--record", dir / "first.pcap"})));
    // Errors and traffic between the sweeps: the second one has rates to judge.
    live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=500");
    live.console("PerformanceSet \"leaf04\"[8] PortCounters.PortRcvErrors=40");
    live.console("PerformanceSet \"leaf04\"[8] PortCountersExtended.PortXmitData=50000000000");
    live.console("PerformanceSet \"leaf04\"[8] PortCounters.PortXmitData=4000000000");
    live_runs.push_back(
        live.run("check_ib_fabric", sweep_args(live_state, {"--record", dir / "second.pcap"})));
    live.run("check_ib_fabric",
             sweep_args(dir / "half", {"--shard", "1/2", "--record", dir / "half.pcap"}));
  }                                      // the simulator stops here
  REQUIRE(live_runs[1].exit_code == 2);  // the errors are CRITICAL
  REQUIRE(live_runs[1].has("leaf02"));

  for (const std::string name : {"first", "second"}) {
    const std::size_t i = name == "first" ? 0 : 1;
    // A plain process: no LD_PRELOAD, no ibsim to answer.
    const ProcessRun replay =
        run_process(with_bin(sweep_args(replay_state, {"--replay", dir / (name + ".pcap")})));
    INFO(name << " sweep, live:\n"
              << live_runs[i].out << "replayed:\n"
              << replay.out << replay.err);
    CHECK(replay.exit_code == live_runs[i].exit_code);
    CHECK(time_independent(replay.out) == time_independent(live_runs[i].out));
  }
  // The second sweep judged rates (from the recording's clock when replayed).
  CHECK(live_runs[1].has("symbol_errors="));

  // A recording of half the fabric replayed as the whole: the first query it lacks is named.
  const ProcessRun partial =
      run_process(with_bin(sweep_args(dir / "other", {"--replay", dir / "half.pcap"})));
  INFO(partial.out << partial.err);
  CHECK(partial.exit_code == 3);
  CHECK(partial.line_count() == 1);
  CHECK(std::regex_match(partial.first_line(),
                         std::regex("IB FABRIC UNKNOWN - --replay .*/half.pcap: the recording has "
                                    "no answer to [A-Za-z]+ Get to LID [0-9]+(, port [0-9]+)?")));
  // Not a recording at all: one line, UNKNOWN.
  const ProcessRun text =
      run_process(with_bin(sweep_args(dir / "other", {"--replay", dir / "fabric.cache"})));
  CHECK(text.exit_code == 3);
  CHECK(text.line_count() == 1);
  CHECK(text.first_line().rfind("IB FABRIC UNKNOWN - --replay ", 0) == 0);
}

TEST_CASE("A rotated recording keeps the last sweeps, whole, and replays in turn") {
  IBPM_REQUIRE_SIMULATOR();
  TempDir dir("record-rotation");
  const std::string record = dir / "sweep.pcap";
  const auto file = [&](int n) { return n ? record + "." + std::to_string(n) : record; };
  const auto sizes = [&] {
    std::vector<std::uintmax_t> bytes;
    for (int n = 0; n <= 4; ++n)
      bytes.push_back(std::filesystem::exists(file(n)) ? std::filesystem::file_size(file(n)) : 0);
    return bytes;
  };
  std::vector<ProcessRun> live_runs;
  std::vector<std::uintmax_t> before_last;
  {
    LiveFabric live = LiveFabric::start();
    REQUIRE(live.fabric.run_client({"ibnetdiscover", "--cache", dir / "fabric.cache"}) == 0);
    // Each sweep of this fabric records about 200 kB: every run after the first finds the file
    // full and moves it aside.
    for (int sweep = 1; sweep <= 5; ++sweep) {
      if (sweep == 5) {
        // Sweeps 4, 3, 2, 1 in FILE, FILE.1, FILE.2, FILE.3: copied for the replay below.
        before_last = sizes();
        std::filesystem::create_directory(dir / "kept");
        for (int n = 0; n <= 3; ++n)
          std::filesystem::copy_file(file(n), dir / ("kept/" + std::to_string(n)));
      }
      live.console("PerformanceSet \"leaf03\"[2] PortCounters.PortRcvErrors=" +
                   std::to_string(10 * sweep));
      live_runs.push_back(live.run(
          "check_ib_fabric", sweep_args(dir / "live", {"--record", record, "--record-max-size",
                                                       "50K", "--record-keep", "3"})));
      INFO(live_runs.back().out << live_runs.back().err);
      REQUIRE(live_runs.back().exit_code != 3);
    }
  }
  for (int n = 0; n < 4; ++n) {
    INFO("FILE." << n);
    CHECK(before_last[static_cast<std::size_t>(n)] > 50 * 1024);
  }
  CHECK(before_last[4] == 0);
  // The fifth sweep moved each file one on and removed sweep 1's.
  const std::vector<std::uintmax_t> after = sizes();
  CHECK(after[0] > 50 * 1024);
  CHECK(after[1] == before_last[0]);
  CHECK(after[2] == before_last[1]);
  CHECK(after[3] == before_last[2]);
  CHECK(after[4] == 0);

  // The four files replayed oldest first (without the simulator) give the four live sweeps.
  for (int n = 3; n >= 0; --n) {
    const std::size_t sweep = static_cast<std::size_t>(3 - n);
    const ProcessRun replay = run_process(
        with_bin(sweep_args(dir / "replay", {"--replay", dir / ("kept/" + std::to_string(n))})));
    INFO("sweep " << sweep + 1 << ", live:\n"
                  << live_runs[sweep].out << "replayed:\n"
                  << replay.out << replay.err);
    CHECK(replay.exit_code == live_runs[sweep].exit_code);
    CHECK(time_independent(replay.out) == time_independent(live_runs[sweep].out));
  }
  CHECK(live_runs[3].has("rcv_errors="));
}
