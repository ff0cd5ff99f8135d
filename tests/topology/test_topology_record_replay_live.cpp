// SPDX-License-Identifier: MIT
// --record and --replay of a discovery (libibnetdisc's directed-route SMPs, through the umad tap),
// on a simulated fat tree:
//   - check_ib_topology recorded live against a baseline, healthy and then with a leaf's uplink
//     unplugged (CRITICAL), and replayed in a plain process (no LD_PRELOAD, the simulator stopped)
//     gives the live exit code and output, byte for byte;
//   - both runs recorded into one file are split by ibpm-split-recording where the second
//     discovery starts, and each part replays to its run's output;
//   - ibpm-topology and check_ib_routes --refresh (no --cache: it discovers) replay the same way;
//   - a recording that holds no discovery (check_ib_fabric's on --cache), one cut short, and
//     --replay with --cache are UNKNOWN in one line;
//   - check_ib_fabric and check_ib_node runs that discovered (no topology yet) replay their
//     discovery into a fresh state directory, to the live output and saved topology;
//   - tshark, when installed, decodes the recorded DR SMPs: permissive LIDs, QP0, every node's
//     NodeInfo answered.
#include <catch2/catch.hpp>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "mad/pcap_library.hpp"
#include "support/process.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm;
using ibpm::test::bin;
using ibpm::test::ProcessRun;
using ibpm::test::run_process;

namespace topology_record_test {

ProcessRun live(sim::SimulatedFabric& fabric, std::vector<std::string> argv) {
  ProcessRun run;
  run.exit_code = fabric.run_client(argv, &run.out, &run.err);
  return run;
}

std::vector<std::string> check_argv(const std::string& baseline, const std::string& how,
                                    const std::string& recording) {
  return {bin("check_ib_topology"), "--baseline", baseline, "-v", how, recording};
}

// The first `count` packets of a recording, as a recording (libpcap reads and writes them).
void cut_recording(const std::string& from, const std::string& to, int count) {
  const mad::PcapLibrary& pcap = mad::pcap_library();
  char error[PCAP_ERRBUF_SIZE] = "";
  pcap_t* in =
      pcap.open_offline_with_tstamp_precision(from.c_str(), PCAP_TSTAMP_PRECISION_NANO, error);
  REQUIRE(in);
  pcap_dumper_t* out = pcap.dump_open_append(in, to.c_str());
  REQUIRE(out);
  pcap_pkthdr* header = nullptr;
  const u_char* bytes = nullptr;
  for (int i = 0; i < count && pcap.next_ex(in, &header, &bytes) == 1; ++i)
    pcap.dump(reinterpret_cast<u_char*>(out), header, bytes);
  pcap.dump_close(out);
  pcap.close(in);
}

// A sweep's output without its durations (status line, perfdata, the long output's "sweep" line).
std::string time_independent(const std::string& output) {
  std::string text = std::regex_replace(output, std::regex(R"( polled in [0-9.]+ s)"), " polled");
  text = std::regex_replace(text, std::regex(R"((sweep_time|poll_time)=[0-9.e-]+s)"), "$1=T");
  return std::regex_replace(text, std::regex(R"(sweep [0-9.]+ s \(polling and state [0-9.]+ s\))"),
                            "sweep T");
}

// A perfdata value of a status line ("switches=6;;;0" -> 6).
int perfdata(const std::string& line, const std::string& label) {
  std::smatch match;
  REQUIRE(std::regex_search(line, match, std::regex(" " + label + "=([0-9]+)")));
  return std::stoi(match[1]);
}

}  // namespace topology_record_test

using namespace topology_record_test;

TEST_CASE("A discovery recorded on ibsim replays without it to the live results") {
  IBPM_REQUIRE_SIMULATOR();
  test::TempDir dir("topology-record");
  sim::FatTree tree = test::small_tree(16, 8);
  const std::string baseline = dir / "baseline.cache";
  const std::string healthy_pcap = dir / "healthy.pcap";
  const std::string lost_pcap = dir / "lost.pcap";
  const std::string both_pcap = dir / "both.pcap";  // the two runs, one after the other
  ProcessRun healthy, lost, tool, routes, sweep;
  std::string far_end, leaf;
  int uplink = 0;
  {
    auto fabric = sim::SimulatedFabric::start_text(tree.net_file());
    REQUIRE(live(fabric, {bin("check_ib_topology"), "--write-baseline", baseline}).exit_code == 0);
    healthy = live(fabric, check_argv(baseline, "--record", healthy_pcap));
    REQUIRE(live(fabric, check_argv(baseline, "--record", both_pcap)).exit_code == 0);
    tool = live(fabric, {bin("ibpm-topology"), "--levels", "--record", dir / "tool.pcap"});
    routes = live(fabric, {bin("check_ib_routes"), "--refresh", "--state-dir", dir / "routes-live",
                           "--record", dir / "routes.pcap"});
    // A sweep on --cache discovers nothing: its recording holds no discovery.
    sweep = live(fabric, {bin("check_ib_fabric"), "--cache", baseline, "--state-dir", dir / "sweep",
                          "--record", dir / "sweep.pcap"});
    // A leaf's uplink: both switches stay reachable, so exactly this cable is lost.
    leaf = tree.leaves().front();
    uplink = tree.host_ports_per_leaf + 1;
    const auto peer = tree.topology.peer({*tree.topology.find_node(leaf), uplink});
    REQUIRE(peer);
    far_end = tree.topology.port_name(*peer);
    fabric.console("Unlink \"" + leaf + "\"[" + std::to_string(uplink) + "]");
    lost = live(fabric, check_argv(baseline, "--record", lost_pcap));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // past the split's --gap
    REQUIRE(live(fabric, check_argv(baseline, "--record", both_pcap)).exit_code == 2);
  }  // the simulator stops here
  INFO("live:\n" << healthy.out << healthy.err << lost.out << lost.err);
  REQUIRE(healthy.exit_code == 0);
  REQUIRE(healthy.first_line().find("as in the baseline") != std::string::npos);
  REQUIRE(lost.exit_code == 2);
  REQUIRE(lost.first_line().rfind("IB TOPOLOGY CRITICAL - 1 link lost", 0) == 0);
  REQUIRE(tool.exit_code == 0);
  REQUIRE(routes.exit_code == 0);
  REQUIRE(sweep.exit_code == 0);

  // check_ib_topology: the live status, perfdata and long output.
  {
    for (const auto& [run, recording] :
         {std::pair{&healthy, healthy_pcap}, std::pair{&lost, lost_pcap}}) {
      const ProcessRun replayed = run_process(check_argv(baseline, "--replay", recording));
      INFO("replayed " << recording << ":\n" << replayed.out << replayed.err);
      CHECK(replayed.exit_code == run->exit_code);
      CHECK(replayed.out == run->out);
    }
    const ProcessRun replayed_lost = run_process(check_argv(baseline, "--replay", lost_pcap));
    CHECK(replayed_lost.has("link lost: " + far_end + " <-> " + leaf + "[" +
                            std::to_string(uplink) + "]"));
  }

  // Both runs in one file: ibpm-split-recording splits them where the second discovery starts,
  // and each part replays to its run's output.
  {
    const ProcessRun split =
        run_process({bin("ibpm-split-recording"), both_pcap, "-o", dir / "runs", "--gap", "0.1"});
    INFO(split.out << split.err);
    REQUIRE(split.exit_code == 0);
    CHECK(split.has(": 2 runs, "));
    for (const auto& [run, part] : {std::pair{&healthy, dir / "runs/both-0001.pcap"},
                                    std::pair{&lost, dir / "runs/both-0002.pcap"}}) {
      const ProcessRun replayed = run_process(check_argv(baseline, "--replay", part));
      INFO("replayed " << part << ":\n" << replayed.out << replayed.err);
      CHECK(replayed.exit_code == run->exit_code);
      CHECK(replayed.out == run->out);
    }
  }

  // ibpm-topology, and check_ib_routes --refresh without --cache.
  {
    const ProcessRun tool_replay =
        run_process({bin("ibpm-topology"), "--levels", "--replay", dir / "tool.pcap"});
    INFO(tool_replay.out << tool_replay.err);
    CHECK(tool_replay.exit_code == 0);
    CHECK(tool_replay.out == tool.out);
    const ProcessRun routes_replay =
        run_process({bin("check_ib_routes"), "--refresh", "--state-dir", dir / "routes-replay",
                     "--replay", dir / "routes.pcap"});
    INFO(routes_replay.out << routes_replay.err);
    CHECK(routes_replay.exit_code == routes.exit_code);
    CHECK(routes_replay.out == routes.out);
    // The discovery replayed: the same topology saved as the live run saved it.
    CHECK(test::read_text(dir / "routes-replay/topology.ibnetdiscover") ==
          test::read_text(dir / "routes-live/topology.ibnetdiscover"));
  }

  // A recording without the discovery, or cut short, and --replay with --cache.
  {
    const ProcessRun no_discovery =
        run_process(check_argv(baseline, "--replay", dir / "sweep.pcap"));
    INFO(no_discovery.out << no_discovery.err);
    CHECK(no_discovery.exit_code == 3);
    CHECK(no_discovery.line_count() == 1);
    CHECK(no_discovery.first_line() == "IB TOPOLOGY UNKNOWN - --replay " + dir / "sweep.pcap" +
                                           ": the recording holds no fabric discovery (no "
                                           "directed-route SMPs); record one with --record on a "
                                           "run that discovers the fabric");

    cut_recording(healthy_pcap, dir / "cut.pcap", 12);
    const ProcessRun cut = run_process(check_argv(baseline, "--replay", dir / "cut.pcap"));
    INFO(cut.out << cut.err);
    CHECK(cut.exit_code == 3);
    CHECK(cut.line_count() == 1);
    CHECK(std::regex_match(cut.first_line(),
                           std::regex("IB TOPOLOGY UNKNOWN - --replay .*/cut.pcap: the recording "
                                      "has no answer to [A-Za-z]+ Get by directed route "
                                      "0(,[0-9]+)*(, port [0-9]+)?")));

    const ProcessRun with_cache =
        run_process({bin("check_ib_topology"), "--cache", baseline, "--replay", healthy_pcap});
    CHECK(with_cache.exit_code == 3);
    CHECK(with_cache.line_count() == 1);
    CHECK(with_cache.first_line() ==
          "IB TOPOLOGY UNKNOWN - --record and --replay record and "
          "replay a discovery: not with --cache");
  }
}

TEST_CASE("Sweeps and node checks that discover replay their discovery without --cache") {
  IBPM_REQUIRE_SIMULATOR();
  test::TempDir dir("topology-record-sweep");
  const sim::FatTree tree = test::small_tree(16, 8);
  const std::string leaf = tree.leaves().front();
  ProcessRun sweep, node;
  {
    auto fabric = sim::SimulatedFabric::start_text(tree.net_file());
    // First runs: no topology in their state directories, so they discover.
    sweep = live(fabric, {bin("check_ib_fabric"), "--state-dir", dir / "sweep-live", "--record",
                          dir / "sweep.pcap"});
    node = live(fabric, {bin("check_ib_node"), "--node", leaf, "--state-dir", dir / "node-live",
                         "--record", dir / "node.pcap"});
  }
  INFO("live:\n" << sweep.out << sweep.err << node.out << node.err);
  REQUIRE(sweep.exit_code == 0);
  REQUIRE(node.exit_code == 0);
  const ProcessRun sweep_replay =
      run_process({bin("check_ib_fabric"), "--state-dir", dir / "sweep-replay", "--replay",
                   dir / "sweep.pcap"});
  INFO("replayed:\n" << sweep_replay.out << sweep_replay.err);
  CHECK(sweep_replay.exit_code == sweep.exit_code);
  CHECK(time_independent(sweep_replay.out) == time_independent(sweep.out));
  CHECK(test::read_text(dir / "sweep-replay/topology.ibnetdiscover") ==
        test::read_text(dir / "sweep-live/topology.ibnetdiscover"));
  const ProcessRun node_replay = run_process({bin("check_ib_node"), "--node", leaf, "--state-dir",
                                              dir / "node-replay", "--replay", dir / "node.pcap"});
  INFO(node_replay.out << node_replay.err);
  CHECK(node_replay.exit_code == node.exit_code);
  CHECK(node_replay.out == node.out);
}

TEST_CASE("tshark decodes the directed-route SMPs of a recorded discovery") {
  IBPM_REQUIRE_SIMULATOR();
  if (test::find_program("tshark").empty())
    IBPM_SKIP("tshark not installed (apt-get install tshark)");
  test::TempDir dir("topology-record-tshark");
  const std::string recording = dir / "discovery.pcap";
  ProcessRun run;
  {
    auto fabric = sim::SimulatedFabric::start_text(test::small_tree(16, 8).net_file());
    run = live(fabric, {bin("check_ib_topology"), "--record", recording});
  }
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const ProcessRun decoded =
      run_process({"tshark", "-r", recording, "-T", "fields", "-e", "infiniband.lrh.dlid", "-e",
                   "infiniband.lrh.slid", "-e", "infiniband.bth.destqp", "-e",
                   "infiniband.mad.mgmtclass", "-e", "infiniband.mad.method", "-e",
                   "infiniband.mad.attributeid", "-e", "infiniband.smpdirected.hopcount"});
  REQUIRE(decoded.exit_code == 0);
  std::map<std::string, int> answers;  // attribute id -> GetResp count
  int packets = 0, max_hops = 0;
  std::istringstream lines(decoded.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string dlid, slid, qp, klass, method, attribute, hop_count;
    fields >> dlid >> slid >> qp >> klass >> method >> attribute >> hop_count;
    const int hops = hop_count.empty() ? -1 : std::stoi(hop_count, nullptr, 16);  // "0x02"
    INFO(line);
    CHECK(klass == "0x81");
    CHECK(dlid == "65535");
    CHECK(slid == "65535");
    CHECK(qp == "0x000000");
    if (method == "0x81") ++answers[attribute];
    max_hops = std::max(max_hops, hops);
    ++packets;
  }
  // Every node answered its NodeInfo, at least once; hosts sit two hops below the spines.
  const int nodes = perfdata(run.first_line(), "switches") + perfdata(run.first_line(), "cas");
  CHECK(answers["0x0011"] >= nodes);
  CHECK(answers["0x0015"] > 0);  // PortInfo
  CHECK(max_hops >= 2);
  CHECK(packets > 2 * nodes);
}
