// SPDX-License-Identifier: MIT
// A real Prometheus (Debian's prometheus) with the shipped alerting and recording rules, scraping
// a real node_exporter whose textfile folder check_ib_fabric --openmetrics writes, on a simulated
// fat tree: symbol errors injected on a port make IbPortCritical fire in /api/v1/alerts with that
// port's labels, and a sweep without new errors resolves it. Every panel query of every shipped
// Grafana dashboard, run against that Prometheus, returns series.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <thread>

#include "support/json_reader.hpp"
#include "support/live_fabric.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "support/skip.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;

namespace prometheus_live {

namespace fs = std::filesystem;

// node_exporter on the sweep's textfile folder and Prometheus scraping it every second, its rules
// evaluated every second, each on a free loopback port, both stopped with the test.
class PrometheusStack {
 public:
  PrometheusStack(const std::string& exporter, const std::string& prometheus, std::string curl)
      : dir_("prometheus-live"), curl_(std::move(curl)) {
    fs::create_directories(dir_.path() / "textfiles");
    fs::create_directories(dir_.path() / "data");
    const int exporter_port = free_loopback_port();
    exporter_.emplace(
        std::vector<std::string>{exporter,
                                 "--web.listen-address=127.0.0.1:" + std::to_string(exporter_port),
                                 "--collector.disable-defaults", "--collector.textfile",
                                 "--collector.textfile.directory=" + dir_ / "textfiles"},
        dir_.path() / "node-exporter.log");
    const std::string rules = std::string(IBPM_SOURCE_DIR) + "/prometheus/";
    std::ofstream(dir_ / "prometheus.yml")
        << "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n"
        << "rule_files:\n  - " << rules << "ibpm-alerts.yml\n  - " << rules
        << "ibpm-recording.yml\n  - " << IBPM_THRESHOLD_ALERTS << "\n"
        << "scrape_configs:\n  - job_name: node\n    static_configs:\n"
        << "      - targets: ['127.0.0.1:" << exporter_port << "']\n";
    port_ = free_loopback_port();
    server_.emplace(
        std::vector<std::string>{prometheus, "--config.file=" + dir_ / "prometheus.yml",
                                 "--storage.tsdb.path=" + dir_ / "data",
                                 "--web.listen-address=127.0.0.1:" + std::to_string(port_)},
        dir_.path() / "prometheus.log");
    for (int i = 0; i < 200; ++i) {
      if (get("/-/ready").exit_code == 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    FAIL("Prometheus did not get ready on port " << port_ << ": "
                                                 << read_text(dir_.path() / "prometheus.log"));
  }

  std::string textfile() const { return dir_ / "textfiles/ibpm.prom"; }

  // The "data" member of an API answer whose status is success.
  Json api(const std::string& path, const std::vector<std::string>& params = {}) {
    std::vector<std::string> argv{curl_, "-sfG",
                                  "http://127.0.0.1:" + std::to_string(port_) + path};
    for (const std::string& param : params) {
      argv.push_back("--data-urlencode");
      argv.push_back(param);
    }
    const ProcessRun run = run_process(argv);
    INFO(path << " " << (params.empty() ? "" : params[0]) << ": " << run.err << run.out);
    REQUIRE(run.exit_code == 0);
    Json answer = JsonReader(run.out).document();
    REQUIRE(answer["status"].string == "success");
    return answer["data"];
  }

  // The series an instant query returns.
  std::vector<Json> query(const std::string& expr) {
    return api("/api/v1/query", {"query=" + expr})["result"].items;
  }

  // Polls every 200 ms, up to `seconds`, until `done` holds.
  static bool wait_until(const std::function<bool()>& done, int seconds = 20) {
    for (int i = 0; i < seconds * 5; ++i) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    return false;
  }

 private:
  ProcessRun get(const std::string& path) {
    return run_process({curl_, "-sf", "http://127.0.0.1:" + std::to_string(port_) + path});
  }

  TempDir dir_;
  std::string curl_;
  int port_ = 0;
  std::optional<BackgroundProcess> exporter_;
  std::optional<BackgroundProcess> server_;
};

std::string label(const Json& series, const std::string& name) {
  const Json& labels = series.has("labels") ? series["labels"] : series["metric"];
  return labels.has(name) ? labels[name].string : std::string();
}

// The active alerts named `name` (pending or firing).
std::vector<Json> alerts_named(PrometheusStack& prometheus, const std::string& name) {
  std::vector<Json> found;
  const Json data = prometheus.api("/api/v1/alerts");
  for (const Json& alert : data["alerts"].items)
    if (label(alert, "alertname") == name) found.push_back(alert);
  return found;
}

// Traffic on leaf02's first host port and first uplink in both directions (64-bit and 32-bit
// counters alike), so that the rates of the recording rules have something to divide.
void add_traffic(LiveFabric& live, int round) {
  const std::string words = std::to_string(1000000 * round);
  for (const char* port : {"[1]", "[7]"})
    for (const char* counter : {"PortXmitData", "PortRcvData"}) {
      live.console("PerformanceSet \"leaf02\"" + std::string(port) + " PortCountersExtended." +
                   counter + "=" + words);
      live.console("PerformanceSet \"leaf02\"" + std::string(port) + " PortCounters." + counter +
                   "=" + words);
    }
}

// Runs a sweep that writes the stack's textfile and waits until Prometheus has scraped it (its
// start time changed), so that each sweep is a sample of its own.
ProcessRun sweep_scraped(LiveFabric& live, PrometheusStack& prometheus,
                         const std::vector<std::string>& args) {
  const auto started = [&] {
    const std::vector<Json> series = prometheus.query("ibpm_sweep_start_time_seconds");
    return series.empty() ? std::string() : series[0]["value"][1].string;
  };
  const std::string before = started();
  ProcessRun run = live.run("check_ib_fabric", args);
  INFO(run.out << run.err);
  REQUIRE(PrometheusStack::wait_until([&] { return started() != before; }));
  return run;
}

struct Skips {
  std::string exporter, prometheus, curl;
  std::string why() const {
    if (exporter.empty())
      return "node_exporter not installed (Debian package prometheus-node-exporter)";
    if (prometheus.empty()) return "Prometheus not installed (Debian package prometheus)";
    if (curl.empty()) return "curl not installed";
    return {};
  }
};

Skips programs() {
  return {find_program("prometheus-node-exporter"), find_program("prometheus"),
          find_program("curl")};
}

// Every panel query ("expr" of a target) of a Grafana dashboard, rows' panels included.
void collect_exprs(const Json& node, std::vector<std::string>& exprs) {
  if (node.kind == Json::Kind::object) {
    for (const auto& [name, value] : node.members) {
      if (name == "targets")
        for (const Json& target : value.items)
          if (target.has("expr")) exprs.push_back(target["expr"].string);
      if (name == "panels") collect_exprs(value, exprs);
    }
  } else if (node.kind == Json::Kind::array) {
    for (const Json& item : node.items) collect_exprs(item, exprs);
  }
}

std::string substitute(std::string text, const std::map<std::string, std::string>& values) {
  // Longest names first, so that $port never eats the start of $port_name.
  std::vector<std::pair<std::string, std::string>> ordered(values.begin(), values.end());
  std::sort(ordered.begin(), ordered.end(),
            [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  for (const auto& [name, value] : ordered)
    for (const std::string& form : {"${" + name + "}", "$" + name})
      for (std::size_t at; (at = text.find(form)) != std::string::npos;)
        text.replace(at, form.size(), value);
  return text;
}

}  // namespace prometheus_live

using namespace prometheus_live;

TEST_CASE(
    "Prometheus fires IbPortCritical on the erroring port and resolves it after a clean sweep") {
  IBPM_REQUIRE_SIMULATOR();
  const Skips found = programs();
  if (!found.why().empty()) IBPM_SKIP(found.why());

  LiveFabric live = LiveFabric::start();
  PrometheusStack prometheus(found.exporter, found.prometheus, found.curl);
  StateDir state("prometheus-alerts");
  const std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--openmetrics",
                                      prometheus.textfile()};
  REQUIRE(sweep_scraped(live, prometheus, args).exit_code == 0);
  // Scraped and judged by the rules: every cabled port, no alert about ports.
  REQUIRE(prometheus.query("ibpm_port_check_state").size() == 144);
  CHECK(alerts_named(prometheus, "IbPortCritical").empty());

  live.console("PerformanceSet \"leaf02\"[3] PortCounters.SymbolErrorCounter=40");
  const ProcessRun bad = sweep_scraped(live, prometheus, args);
  INFO(bad.out);
  REQUIRE(bad.exit_code == 2);
  std::vector<Json> firing;
  REQUIRE(PrometheusStack::wait_until([&] {
    firing = alerts_named(prometheus, "IbPortCritical");
    return !firing.empty() && firing[0]["state"].string == "firing";
  }));
  REQUIRE(firing.size() == 1);
  const std::string peer = live.peer_name("leaf02", 3);  // "spine02[1]"
  CHECK(label(firing[0], "node") == "leaf02");
  CHECK(label(firing[0], "node_guid") == live.guid_of("leaf02"));
  CHECK(label(firing[0], "port") == "3");
  CHECK(label(firing[0], "remote") == peer.substr(0, peer.find('[')));
  CHECK(label(firing[0], "remote_port") ==
        peer.substr(peer.find('[') + 1, peer.find(']') - peer.find('[') - 1));
  CHECK(label(firing[0], "severity") == "critical");
  // The threshold alert on the rate fires on the same port (it resolves only when its 15-minute
  // window no longer holds the errors: too slow to wait for here).
  std::vector<Json> rate_alerts;
  REQUIRE(PrometheusStack::wait_until([&] {
    rate_alerts = alerts_named(prometheus, "IbPortSymbolErrors");
    return rate_alerts.size() == 2;  // the warning and the critical rule
  }));
  for (const Json& alert : rate_alerts) {
    CHECK(label(alert, "node") == "leaf02");
    CHECK(label(alert, "port") == "3");
  }

  // The errors stop: the next sweep judges the port OK and the alert resolves.
  const ProcessRun clean = sweep_scraped(live, prometheus, args);
  INFO(clean.out);
  REQUIRE(clean.exit_code == 0);
  CHECK(PrometheusStack::wait_until(
      [&] { return alerts_named(prometheus, "IbPortCritical").empty(); }));
}

TEST_CASE("Every panel query of every shipped Grafana dashboard returns series from the sweep") {
  IBPM_REQUIRE_SIMULATOR();
  const Skips found = programs();
  if (!found.why().empty()) IBPM_SKIP(found.why());

  std::map<std::string, Json> dashboards;
  for (const auto& entry : fs::directory_iterator(std::string(IBPM_SOURCE_DIR) + "/grafana"))
    if (entry.path().extension() == ".json")
      dashboards[entry.path().filename().string()] = JsonReader(read_text(entry.path())).document();
  REQUIRE(dashboards.size() >= 5);

  LiveFabric live = LiveFabric::start();
  PrometheusStack prometheus(found.exporter, found.prometheus, found.curl);
  StateDir state("prometheus-dashboards");
  const std::vector<std::string> args{"--state-dir", state.path(), "--no-syslog", "--openmetrics",
                                      prometheus.textfile()};
  // The forwarding tables in the state folder, for the sweep to find congestion roots.
  REQUIRE(live.run("ibpm-routes", {"--refresh", "--state-dir", state.path()}).exit_code == 0);
  // Three sweeps with traffic between them, each scraped: rates over two samples at least; in
  // the last, leaf02's first uplink waits most of the interval, a congestion root of its own.
  for (int round = 1; round <= 3; ++round) {
    add_traffic(live, round);
    if (round == 3)
      live.console("PerformanceSet \"leaf02\"[7] PortCounters.PortXmitWait=4000000000");
    const ProcessRun run = sweep_scraped(live, prometheus, args);
    INFO(run.out);
    REQUIRE(run.exit_code == (round == 3 ? 2 : 0));
  }
  REQUIRE(PrometheusStack::wait_until(
      [&] { return !prometheus.query("ibpm:leaf_locality:ratio15m").empty(); }));

  std::size_t queries = 0;
  for (const auto& [file, dashboard] : dashboards) {
    // Template variables in order, each the first value its label_values() query finds (the
    // variables before it substituted), as Grafana would pick it.
    std::map<std::string, std::string> values{
        {"__rate_interval", "1m"}, {"__interval", "1s"}, {"__range", "1m"}};
    if (dashboard.has("templating"))
      for (const Json& variable : dashboard["templating"]["list"].items) {
        if (variable["type"].string != "query") continue;
        const Json& q = variable["query"];
        const std::string text = q.kind == Json::Kind::object ? q["query"].string : q.string;
        static const std::regex label_values(R"(^label_values\((.+),\s*(\w+)\)$)");
        std::smatch m;
        INFO(file << ": variable " << variable["name"].string << ": " << text);
        REQUIRE(std::regex_match(text, m, label_values));
        const std::vector<Json> series = prometheus.query(substitute(m[1].str(), values));
        REQUIRE_FALSE(series.empty());
        std::vector<std::string> seen;
        for (const Json& s : series) seen.push_back(label(s, m[2].str()));
        std::sort(seen.begin(), seen.end());
        values[variable["name"].string] = seen.front();
      }
    std::vector<std::string> exprs;
    collect_exprs(dashboard, exprs);
    CHECK_FALSE(exprs.empty());
    for (const std::string& expr : exprs) {
      const std::string run = substitute(expr, values);
      INFO(file << ": " << run);
      CHECK_FALSE(prometheus.query(run).empty());
      ++queries;
    }
  }
  WARN(queries << " panel queries of " << dashboards.size() << " dashboards returned series");
}
