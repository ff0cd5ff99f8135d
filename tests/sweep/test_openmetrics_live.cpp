// SPDX-License-Identifier: MIT
// check_ib_fabric --openmetrics on a live simulated fat tree, served by a real node_exporter from
// its textfile folder: the error counter injected with PerformanceSet shows on the right port's
// labels in /metrics, and nowhere else. A Nagios spool folder that is missing leaves the sweep's
// status line and state as they were (OK, exit 0) and adds one line saying how many results were
// not delivered and why.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include "support/live_fabric.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "support/skip.hpp"

using namespace ibpm::test;

namespace {

struct Series {
  std::map<std::string, std::string> labels;
  std::string value;
};

// The samples of one metric in a /metrics page (node_exporter sorts the labels; values of ours
// hold no escaped quotes here).
std::vector<Series> series_of(const std::string& page, const std::string& metric) {
  std::vector<Series> found;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(metric + "{", 0) != 0) continue;
    Series s;
    std::size_t i = metric.size() + 1;
    while (i < line.size() && line[i] != '}') {
      const std::size_t eq = line.find("=\"", i);
      const std::size_t close = line.find('"', eq + 2);
      s.labels[line.substr(i, eq - i)] = line.substr(eq + 2, close - eq - 2);
      i = close + 1;
      if (line[i] == ',') ++i;
    }
    s.value = line.substr(line.rfind(' ') + 1);
    found.push_back(std::move(s));
  }
  return found;
}

// GET http://127.0.0.1:PORT/metrics, retried while node_exporter starts (up to 10 s).
std::string fetch_metrics(const std::string& curl, int port) {
  ProcessRun run;
  for (int i = 0; i < 100; ++i) {
    run = run_process({curl, "-sf", "http://127.0.0.1:" + std::to_string(port) + "/metrics"});
    if (run.exit_code == 0) return run.out;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  FAIL("node_exporter did not answer on port " << port << ": " << run.err);
  return {};
}

}  // namespace

TEST_CASE("node_exporter serves the sweep's series with the injected error on the right port") {
  IBPM_REQUIRE_SIMULATOR();
  const std::string exporter = find_program("prometheus-node-exporter");
  if (exporter.empty())
    IBPM_SKIP("node_exporter not installed (Debian package prometheus-node-exporter)");
  const std::string curl = find_program("curl");
  if (curl.empty()) IBPM_SKIP("curl not installed");

  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-openmetrics");
  TempDir textfiles("openmetrics-textfiles");
  const std::string prom = (textfiles.path() / "ibpm.prom").string();
  const std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--openmetrics",
                                      prom};
  REQUIRE(live.run("check_ib_fabric", args).exit_code == 0);
  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=40");
  std::vector<std::string> verbose = args;
  verbose.push_back("-v");
  const ProcessRun bad = live.run("check_ib_fabric", verbose);
  INFO(bad.out);
  REQUIRE(bad.exit_code == 2);
  // -v says what the file took: its size as written, and the time.
  CHECK(bad.has("OpenMetrics file: " + std::to_string(std::filesystem::file_size(prom)) +
                " bytes written in "));

  const int port = free_loopback_port();
  BackgroundProcess node_exporter(
      {exporter, "--web.listen-address=127.0.0.1:" + std::to_string(port),
       "--collector.disable-defaults", "--collector.textfile",
       "--collector.textfile.directory=" + textfiles.path().string()},
      textfiles.path().parent_path() / ("node-exporter-" + std::to_string(port) + ".log"));
  const std::string page = fetch_metrics(curl, port);
  // The textfile collector read the file without complaint.
  CHECK(page.find("node_textfile_scrape_error 0") != std::string::npos);

  const std::string leaf = live.guid_of("leaf02");
  const std::string peer = live.peer_name("leaf02", 3);  // "spine02[1]"
  const std::string peer_node = peer.substr(0, peer.find('['));
  const std::string peer_port =
      peer.substr(peer.find('[') + 1, peer.find(']') - peer.find('[') - 1);
  const auto totals = series_of(page, "ibpm_port_symbol_errors_total");
  REQUIRE(totals.size() == 144);  // every cabled port of the tree
  std::size_t with_errors = 0;
  for (const Series& s : totals) {
    if (s.value == "0") continue;
    ++with_errors;
    CHECK(s.labels.at("node_guid") == leaf);
    CHECK(s.labels.at("port") == "3");
    CHECK(s.labels.at("node") == "leaf02");
    CHECK(s.labels.at("remote_guid") == live.guid_of(peer_node));
    CHECK(s.labels.at("remote_port") == peer_port);
    CHECK(s.labels.at("remote") == peer_node);
    CHECK(s.value == "40");
  }
  CHECK(with_errors == 1);
  // The sweep's judgement beside the counter: that port CRITICAL, every other OK; a cable
  // labelled with the fabric levels of both ends.
  std::size_t critical = 0;
  for (const Series& s : series_of(page, "ibpm_port_check_state")) {
    if (s.value == "0") continue;
    ++critical;
    CHECK(s.value == "2");
    CHECK(s.labels.at("node_guid") == leaf);
    CHECK(s.labels.at("port") == "3");
    CHECK(s.labels.at("level") == "leaf");
    CHECK(s.labels.at("remote_level") == (peer_node.rfind("cn", 0) == 0 ? "host" : "spine"));
  }
  CHECK(critical == 1);
  // Rates are Prometheus's own (rate() of the _total counters): no _per_second gauges.
  CHECK(series_of(page, "ibpm_port_symbol_errors_per_second").empty());
  // The budget: at most 24 series per port at the default setting.
  std::map<std::string, std::size_t> per_port;
  std::size_t from = 0;
  while ((from = page.find("\nibpm_port_", from)) != std::string::npos) {
    ++from;
    const std::size_t guid = page.find("node_guid=\"", from) + 11;
    const std::size_t port_at = page.find("port=\"", guid) + 6;
    ++per_port[page.substr(guid, 18) + "[" +
               page.substr(port_at, page.find('"', port_at) - port_at) + "]"];
  }
  REQUIRE(per_port.size() == 144);
  for (const auto& [name, series] : per_port) {
    INFO(name);
    CHECK(series <= 24);
  }
  const auto read = series_of(page, "ibpm_sweep_ports_read");
  REQUIRE(read.size() == 1);
  CHECK(read[0].value == "144");
  CHECK(read[0].labels.at("scope") == "fabric");
}

TEST_CASE("A sweep whose Nagios spool folder is missing keeps its own result and says why") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  StateDir state("sweep-spool-missing");
  TempDir spool("nagios-spool-live");
  const std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--nagios-spool",
                                      (spool.path() / "missing").string()};
  const ProcessRun run = live.run("check_ib_fabric", args);
  INFO(run.out << run.err);
  // The fabric is OK, and so is the sweep: only its long output and perfdata tell.
  CHECK(run.exit_code == 0);
  CHECK(run.first_line().rfind("IB FABRIC OK - ", 0) == 0);
  CHECK(run.first_line().find("144 ports polled in ") != std::string::npos);
  CHECK(run.first_line().find(" undelivered_results=9;;;0") != std::string::npos);
  std::size_t lines = 0;
  for (const std::string& line : run.lines())
    lines += line ==
             "\\_[UNKNOWN] 9 switch results not delivered to Nagios: cannot create a "
             "check result file in " +
                 (spool.path() / "missing").string() + ": No such file or directory";
  CHECK(lines == 1);
  // With the folder there, the next sweep delivers every switch's result.
  std::filesystem::create_directories(spool.path() / "missing");
  const ProcessRun next = live.run("check_ib_fabric", args);
  INFO(next.out);
  CHECK(next.has("9 switch results handed to Nagios"));
  CHECK(next.exit_code == 0);
  CHECK(next.first_line().find(" undelivered_results=0;;;0") != std::string::npos);
  std::size_t markers = 0;
  for (const auto& entry : std::filesystem::directory_iterator(spool.path() / "missing"))
    markers += entry.path().extension() == ".ok";
  CHECK(markers == 1);
}
