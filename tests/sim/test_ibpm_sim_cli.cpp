// SPDX-License-Identifier: MIT
// The ibpm-sim tool as CTest fixtures and the demo use it: generate, start, cmd, exec, traffic,
// stop; and traffic on a congested fabric: an incast cut by the congestion model, the counters
// ibsim then answers (delivered data, PortXmitWait from the lost share), the truth file, and
// flows routed along the forwarding tables OpenSM programmed (ibpm-routes --refresh).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "fabric/types.hpp"
#include "routes/lft_file.hpp"
#include "sim/process.hpp"
#include "support/json_reader.hpp"
#include "support/simulator.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::sim;
using namespace ibpm::test;
namespace fs = std::filesystem;

namespace {

CapturedRun ibpm_sim(std::vector<std::string> args) {
  SpawnRequest request;
  request.argv = {IBPM_SIM_BIN};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  return run_captured(request, std::chrono::seconds(120));
}

// The truth file's entry for a port (REQUIREs it).
const Json& truth_port(const Json& truth, const std::string& node, int port) {
  for (const Json& p : truth["ports"].items)
    if (p["node"].string == node && p["port"].number == port) return p;
  FAIL("no port " << node << "[" << port << "] in the truth");
  throw std::logic_error("unreachable");
}

double perf_counter(const fs::path& dir, int lid, const char* field, bool extended) {
  std::vector<std::string> args{"exec", "--dir", dir.string(), "--", "perfquery"};
  if (extended) args.push_back("-x");
  args.insert(args.end(), {std::to_string(lid), "1"});
  const CapturedRun q = ibpm_sim(args);
  REQUIRE(q.exit_code == 0);
  const auto at = q.out.find(std::string(field) + ":");
  REQUIRE(at != std::string::npos);
  return std::stod(q.out.substr(q.out.find_first_of("0123456789", at)));
}

}  // namespace

TEST_CASE("ibpm-sim generate writes a net file") {
  const TempDir tmp("simcli-gen");
  const fs::path dir = tmp.path();
  CapturedRun run =
      ibpm_sim({"generate", "--hosts", "648", "--radix", "36", "-o", (dir / "f.net").string()});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, Catch::Contains("648 hosts, 36 leaves, 18 spines, 1296 links"));
  std::string net = read_text(dir / "f.net");
  REQUIRE(net.find("Hca\t1\t\"cn0001\"") < net.find("Switch"));

  run = ibpm_sim({"generate", "--hosts", "8", "--radix", "8", "--speed", "EDR", "--degrade",
                  "leaf01[5]=1x", "-o", "-"});
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, Catch::Contains("[5]\t\"spine01\"[1]\t# \"spine01\" lid 0 1xEDR"));

  REQUIRE(ibpm_sim({"generate", "--hosts", "649", "--radix", "36", "-o", "-"}).exit_code != 0);
  REQUIRE(ibpm_sim({"generate", "--hosts", "8", "--degrade", "leaf01=1x", "-o", "-"}).exit_code !=
          0);
}

TEST_CASE("ibpm-sim start / cmd / exec and stop") {
  IBPM_REQUIRE_SIMULATOR();
  // Not tmpfs (when /tmp is a disk): clients then run from a separate tmpfs folder.
  const TempDir tmp("simcli");
  const fs::path base = tmp.path();
  fs::path net = base / "f.net";
  fs::path dir = base / "sim";
  REQUIRE(ibpm_sim({"generate", "--hosts", "16", "--radix", "8", "-o", net.string()}).exit_code ==
          0);

  CapturedRun run = ibpm_sim({"start", net.string(), "--dir", dir.string()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  pid_t ibsim = std::stoi(read_text(dir / "ibsim.pid"));
  REQUIRE(process_alive(ibsim));
  REQUIRE_THAT(read_text(dir / "env"),
               Catch::Contains("export IBSIM_SOCKNAME=") && Catch::Contains("export LD_PRELOAD="));
  REQUIRE(fs::status(dir / "console").type() == fs::file_type::fifo);

  SECTION("a second start on the same folder is refused") {
    run = ibpm_sim({"start", net.string(), "--dir", dir.string()});
    REQUIRE(run.exit_code == 1);
    REQUIRE_THAT(run.err, Catch::Contains("already running"));
    // ... and leaves the running one alone.
    REQUIRE(process_alive(ibsim));
    REQUIRE(fs::exists(dir / "state"));
    REQUIRE(ibpm_sim({"exec", "--dir", dir.string(), "--", "ibnetdiscover"}).exit_code == 0);
  }
  SECTION("start --replace stops the one running first") {
    run = ibpm_sim({"start", net.string(), "--dir", dir.string(), "--replace"});
    REQUIRE(run.exit_code == 0);
    REQUIRE_FALSE(process_alive(ibsim));
    ibsim = std::stoi(read_text(dir / "ibsim.pid"));
    REQUIRE(process_alive(ibsim));
  }
  SECTION("cmd, exec") {
    run = ibpm_sim({"exec", "--dir", dir.string(), "--", "ibnetdiscover"});
    REQUIRE(run.exit_code == 0);
    Discovery d = parse_ibnetdiscover(run.out);
    REQUIRE(d.cas.size() == 16);
    REQUIRE(d.cas.count("cn0016"));
    int lid = d.lids.at("leaf03");

    run = ibpm_sim({"cmd", "--dir", dir.string(),
                    "PerformanceSet \"leaf03\"[2] PortCounters.SymbolErrorCounter=9",
                    "PerformanceSet \"leaf03\"[2] PortCounters.LinkDownedCounter=3"});
    REQUIRE(run.exit_code == 0);
    REQUIRE_THAT(run.out, Catch::Contains("SymbolErrorCounter has been set to 9"));

    fs::path commands = base / "commands";
    std::ofstream(commands) << "PerformanceSet \"leaf03\"[2] PortCounters.PortRcvErrors=5\n";
    REQUIRE(ibpm_sim({"cmd", "--dir", dir.string(), "-f", commands.string()}).exit_code == 0);

    run = ibpm_sim({"exec", "--dir", dir.string(), "--", "perfquery", std::to_string(lid), "2"});
    REQUIRE(run.exit_code == 0);
    REQUIRE_THAT(run.out, Catch::Contains("SymbolErrorCounter:..............9"));
    REQUIRE_THAT(run.out, Catch::Contains("PortRcvErrors:...................5"));

    run = ibpm_sim({"cmd", "--dir", dir.string(), "Unlink \"nosuchnode\"[1]"});
    REQUIRE(run.exit_code == 1);
    REQUIRE_THAT(run.err, Catch::Contains("not found"));

    // The exit code of the client is passed on.
    REQUIRE(ibpm_sim({"exec", "--dir", dir.string(), "--", "perfquery", "999", "1"}).exit_code !=
            0);
  }

  fs::path clients;
  {
    std::ifstream state(dir / "state");
    for (std::string line; std::getline(state, line);)
      if (line.starts_with("clients_dir=")) clients = line.substr(12);
  }
  run = ibpm_sim({"stop", "--dir", dir.string()});
  REQUIRE(run.exit_code == 0);
  REQUIRE_FALSE(process_alive(ibsim));
  REQUIRE_FALSE(fs::exists(dir));
  REQUIRE_FALSE(clients.empty());
  REQUIRE_FALSE(fs::exists(clients));
  REQUIRE(ibpm_sim({"stop", "--dir", dir.string()}).exit_code == 1);
}

TEST_CASE("ibpm-sim traffic sets the counters a flows file implies") {
  IBPM_REQUIRE_SIMULATOR();
  const TempDir tmp("simcli-traffic");
  const fs::path base = tmp.path();
  const fs::path net = base / "f.net", dir = base / "sim", flows = base / "jobs.flows";
  REQUIRE(ibpm_sim({"generate", "--hosts", "16", "--radix", "8", "-o", net.string()}).exit_code ==
          0);
  CapturedRun run = ibpm_sim({"start", net.string(), "--dir", dir.string()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  // The net file is kept with the simulation: the traffic reads the cabling there.
  REQUIRE(read_text(dir / "fabric.net") == read_text(net));

  // leaf02's hosts, away from cn0001 where ibsim's own MADs come in.
  std::ofstream(flows) << "# a pair on leaf02, one flow across the spines\n"
                          "cn0005 cn0006 500MB/s\n"
                          "cn0006 cn0005 250M\n"
                          "cn0007 cn0015 1GB/s\n";
  run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string(), "--elapsed", "10"});
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, Catch::Contains("3 flows, 1.8 GB/s in all, 10.0 s of traffic"));
  REQUIRE_FALSE(fs::exists(dir / "traffic"));  // --elapsed records no start

  run = ibpm_sim({"exec", "--dir", dir.string(), "--", "ibnetdiscover"});
  REQUIRE(run.exit_code == 0);
  const int lid = parse_ibnetdiscover(run.out).lids.at("cn0005");
  auto counters = [&] {
    CapturedRun q = ibpm_sim(
        {"exec", "--dir", dir.string(), "--", "perfquery", "-x", std::to_string(lid), "1"});
    REQUIRE(q.exit_code == 0);
    auto value = [&](const std::string& field) {
      auto at = q.out.find(field + ":");
      REQUIRE(at != std::string::npos);
      return std::stod(q.out.substr(q.out.find_first_of("0123456789", at + field.size())));
    };
    return std::pair{value("PortXmitData"), value("PortRcvData")};
  };
  // 4-octet words: 500 MB/s and 250 MB/s for 10 s, plus the few MADs on the way.
  auto [xmit, rcv] = counters();
  CHECK(xmit == Approx(500e6 * 10 / 4).margin(1e6));
  CHECK(rcv == Approx(250e6 * 10 / 4).margin(1e6));

  // Without --elapsed: the first call starts the flows a second back, later ones count from there.
  run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string()});
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, Catch::Contains("started now (1.0 s of traffic)"));
  REQUIRE(fs::exists(dir / "traffic"));
  CHECK(counters().first == Approx(500e6 / 4).margin(1e6));
  std::this_thread::sleep_for(std::chrono::seconds(2));
  run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string()});
  REQUIRE(run.exit_code == 0);
  REQUIRE_THAT(run.out, Catch::Contains("since the start"));
  const double seconds = counters().first * 4 / 500e6;
  CHECK(seconds > 2.9);
  CHECK(seconds < 5);

  run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string(), "--restart"});
  REQUIRE_THAT(run.out, Catch::Contains("started now"));

  // A bad line: the file and line named, nothing set.
  std::ofstream(flows, std::ios::app) << "\ncn0005 cn0099 1G\n";
  run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string()});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains(flows.string() + ":6: unknown host 'cn0099'"));
  // No simulation in the folder.
  run = ibpm_sim({"traffic", "--dir", base.string(), flows.string()});
  CHECK(run.exit_code == 1);
  CHECK_THAT(run.err, Catch::Contains("no simulation in"));

  REQUIRE(ibpm_sim({"stop", "--dir", dir.string()}).exit_code == 0);
  REQUIRE_FALSE(fs::exists(dir));
}

TEST_CASE("ibpm-sim traffic: an incast is cut, its victims wait, the truth says so") {
  IBPM_REQUIRE_SIMULATOR();
  const TempDir tmp("simcli-congestion");
  const fs::path base = tmp.path();
  const fs::path net = base / "f.net", dir = base / "sim", flows = base / "incast.flows";
  const fs::path truth_file = base / "truth.json";
  // 16 hosts on 4 leaves of 4 (cn0001..cn0004 on leaf01), 2 spines, 4x HDR (25 GB/s).
  REQUIRE(ibpm_sim({"generate", "--hosts", "16", "--radix", "8", "-o", net.string()}).exit_code ==
          0);
  CapturedRun run = ibpm_sim({"start", net.string(), "--dir", dir.string()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  // Three senders of 10 GB/s into cn0002's port of 25 GB/s: one on its leaf, two from other
  // leaves (no spine downlink carries more than two of them, so leaf01[2] is the only full
  // port). Each gets 25/3 GB/s, 1.67 GB/s short: a sending host port waits
  // min(1 - 1/3, 1.67 / 25) = 1/15 of the time. A fourth flow elsewhere is not touched.
  std::ofstream(flows) << "cn0001 cn0002 10GB/s\ncn0005 cn0002 10GB/s\ncn0009 cn0002 10GB/s\n"
                          "cn0006 cn0007 1GB/s\n";
  run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string(), "--elapsed", "10", "--truth",
                  truth_file.string(), "--xmit-wait-tick", "1000"});
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.out, Catch::Contains("4 flows, 31.0 GB/s in all, 10.0 s of traffic") &&
                          Catch::Contains("3 flows cut (26.0 GB/s delivered in all), 1 root,"));

  const Json truth = JsonReader(read_text(truth_file)).document();
  CHECK(truth["seconds"].number == 10);
  const Json& root = truth_port(truth, "leaf01", 2);
  CHECK(root["role"].string == "root");
  CHECK(root["lost_share"].number == 0);
  CHECK(root["utilization"].number == Approx(1));
  CHECK(root["guid"].string.starts_with("0x"));
  CHECK(root["guid"].string.size() == 18);
  for (const char* host : {"cn0001", "cn0005", "cn0009"}) {
    const Json& p = truth_port(truth, host, 1);
    CHECK(p["role"].string == "victim");
    CHECK(p["lost_share"].number == Approx(1.0 / 15));
    CHECK(p["xmit_wait"].number == 666667);  // 10 s / 15 in ticks of 1 us
  }
  CHECK(truth_port(truth, "cn0006", 1)["role"].string == "clean");
  std::size_t roots = 0;
  for (const Json& p : truth["ports"].items) {
    roots += p["role"].string == "root" ? 1 : 0;
    if (p["role"].string == "clean") CHECK(p["xmit_wait"].number == 0);
  }
  CHECK(roots == 1);
  const auto& out_flows = truth["flows"].items;
  REQUIRE(out_flows.size() == 4);
  CHECK(out_flows[1]["from"].string == "cn0005");
  CHECK(out_flows[1]["demand"].number == 10e9);
  CHECK(out_flows[1]["delivered"].number == Approx(25e9 / 3));
  CHECK(out_flows[1]["bottleneck"]["node"].string == "leaf01");
  CHECK(out_flows[3]["delivered"].number == 1e9);
  CHECK(out_flows[3]["bottleneck"].kind == Json::Kind::null);

  // What ibsim answers: the delivered data (plus the MADs on the way) and the waits.
  run = ibpm_sim({"exec", "--dir", dir.string(), "--", "ibnetdiscover"});
  REQUIRE(run.exit_code == 0);
  const Discovery discovery = parse_ibnetdiscover(run.out);
  const int cn0005 = discovery.lids.at("cn0005");
  CHECK(perf_counter(dir, cn0005, "PortXmitWait", false) == 666667);
  CHECK(perf_counter(dir, cn0005, "PortXmitData", true) == Approx(25e9 / 3 * 10 / 4).margin(1e6));

  SECTION("along the forwarding tables") {
    const fs::path state = base / "state";
    run = ibpm_sim({"exec", "--dir", dir.string(), "--", IBPM_ROUTES_BIN, "--refresh",
                    "--state-dir", state.string()});
    INFO(run.out << run.err);
    REQUIRE(run.exit_code == 0);
    const fs::path lft = state / "routes.lft";
    const fs::path lft_truth_file = base / "truth-lft.json";
    run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string(), "--elapsed", "10", "--lft",
                    lft.string(), "--truth", lft_truth_file.string()});
    REQUIRE(run.exit_code == 0);
    const Json lft_truth = JsonReader(read_text(lft_truth_file)).document();

    // cn0005's flow leaves leaf02 through the port leaf02's table names for cn0002's LID.
    const ibpm::routes::ForwardingTables tables = ibpm::routes::read_lft_file(lft.string());
    const ibpm::routes::SwitchTable* leaf02 = nullptr;
    for (const auto& [guid, table] : tables.switches)
      if (table.lid == discovery.lids.at("leaf02")) leaf02 = &table;
    REQUIRE(leaf02);
    const int uplink = leaf02->egress(static_cast<unsigned>(discovery.lids.at("cn0002")));
    const Json& hop = truth_port(lft_truth, "leaf02", uplink);
    CHECK(hop["guid"].string == ibpm::format_guid(leaf02->node));
    CHECK(hop["role"].string == "victim");
    CHECK(hop["carried"].number == Approx(25e9 / 3));

    // A table file that is not one: named, nothing set.
    std::ofstream(base / "bad.lft") << "not an LFT file\n";
    run = ibpm_sim({"traffic", "--dir", dir.string(), flows.string(), "--elapsed", "10", "--lft",
                    (base / "bad.lft").string()});
    CHECK(run.exit_code == 1);
    CHECK_THAT(run.err, Catch::Contains("bad.lft"));
  }

  REQUIRE(ibpm_sim({"stop", "--dir", dir.string()}).exit_code == 0);
}
