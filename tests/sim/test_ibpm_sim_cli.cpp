// SPDX-License-Identifier: MIT
// The ibpm-sim tool as CTest fixtures and the demo use it: generate, start, cmd, exec, traffic,
// stop.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "sim/process.hpp"
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
