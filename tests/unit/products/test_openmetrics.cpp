// SPDX-License-Identifier: MIT
// The Prometheus exposition of a sweep: hostile descriptions stay inside their label, the series
// per port at both settings (the documented budget), the sweep's judgements as gauges, ports
// without counters or baseline, the file replaced whole (or not at all), and promtool's and the
// Python client's parsers accept the text.
#include <sys/resource.h>

#include <catch2/catch.hpp>
#include <csignal>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "products/openmetrics.hpp"
#include "products/openmetrics_merge.hpp"
#include "support/port_results.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"
#include "two_switches.hpp"

using namespace ibpm;
using namespace ibpm::products;
using namespace ibpm::test;

namespace openmetrics_test {

// A leaf (described `leaf`) whose ports 1 and 2 are cabled to a spine (described `spine`).
Fabric two_switches(const std::string& leaf, const std::string& spine) {
  Fabric fabric;
  add_two_switches(fabric, leaf, spine);
  return fabric;
}

// The same with a host on the leaf's port 3: the leaf is a leaf, the spine a spine.
Fabric leaf_spine_host() {
  Fabric fabric = two_switches("leaf01", "spine01");
  fabric.add_node(0x0002c9030000abcd, NodeType::ca, "cn0001 HCA-1", 1);
  fabric.connect({kLeaf, 3}, {0x0002c9030000abcd, 1});
  return fabric;
}

// A verdict per result (the results outlive them), OK unless changed.
std::vector<sweep::PortVerdict> verdicts_of(const std::vector<poll::PortResult>& results) {
  std::vector<sweep::PortVerdict> verdicts;
  for (const poll::PortResult& r : results) {
    sweep::PortVerdict v;
    v.result = &r;
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

std::string text_of(const std::vector<poll::PortResult>& results, const Fabric& fabric,
                    const SweepFigures& figures = {}, const OpenMetricsSettings& settings = {}) {
  return openmetrics_text(verdicts_of(results), fabric, figures, settings);
}

poll::PortResult cabled(poll::PortResult r) {
  own_target(r).remote = PortRef{kSpine, r.target->port};
  LinkState live;
  live.state = PortState::active;
  live.width = LinkWidth::x4;
  live.speed = LinkSpeed::hdr;
  r.sample.live = live;
  return r;
}

std::vector<std::string> sample_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t from = 0;
  while (from < text.size()) {
    const std::size_t end = text.find('\n', from);
    REQUIRE(end != std::string::npos);  // every line ends in a line feed
    const std::string line = text.substr(from, end - from);
    if (line.rfind("#", 0) != 0) lines.push_back(line);
    from = end + 1;
  }
  return lines;
}

// The label values of one sample line, unescaped as a Prometheus parser would.
std::map<std::string, std::string> parse_labels(const std::string& line) {
  std::map<std::string, std::string> labels;
  std::size_t i = line.find('{');
  REQUIRE(i != std::string::npos);
  ++i;
  while (line[i] != '}') {
    const std::size_t eq = line.find("=\"", i);
    REQUIRE(eq != std::string::npos);
    const std::string name = line.substr(i, eq - i);
    std::string value;
    std::size_t j = eq + 2;
    for (; line[j] != '"'; ++j) {
      REQUIRE(j < line.size());
      if (line[j] == '\\') {
        ++j;
        value += line[j] == 'n' ? '\n' : line[j];
      } else {
        value += line[j];
      }
    }
    labels[name] = value;
    i = j + 1;
    if (line[i] == ',') ++i;
  }
  return labels;
}

std::size_t count_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
  std::size_t n = 0;
  for (const std::string& line : lines) n += line.rfind(prefix, 0) == 0;
  return n;
}

// Sample lines per port (node_guid and port), the sweep's own figures left out.
std::map<std::string, std::size_t> series_per_port(const std::string& text) {
  std::map<std::string, std::size_t> ports;
  for (const std::string& line : sample_lines(text)) {
    const auto labels = parse_labels(line);
    if (labels.contains("scope")) continue;
    ++ports[labels.at("node_guid") + "[" + labels.at("port") + "]"];
  }
  return ports;
}

// A port with everything a bad cable shows: symbol errors over its BER windows (the history
// covers both), XmitWait, below its baseline width, flapping, and a congestion root.
poll::PortResult bad_cable_port(PortNumber port) {
  poll::PortResult r = cabled(quiet_port(port));
  own_record(r).time = r.sample.time;
  r.errors.since = r.sample.time - 8000;
  state::ErrorInterval interval;
  interval.end = r.sample.time - 100;
  interval.seconds = 60;
  interval.errors = {100000, 50000, 0};
  r.errors.intervals.push_back(interval);
  r.rates.xmit_wait_pct = 35;
  own_target(r).width = LinkWidth::x4;
  r.sample.live->width = LinkWidth::x2;
  return r;
}

// The cases too: this file is unity-built with others of the same names.

TEST_CASE("label values escape backslash, double quote and line feed") {
  CHECK(openmetrics_label_value("leaf01 HCA-1") == "leaf01 HCA-1");
  CHECK(openmetrics_label_value("a\\b\"c\nd") == "a\\\\b\\\"c\\nd");
  CHECK(openmetrics_label_value("tab\there\rcr\x7f") == "tab here cr ");
  CHECK(openmetrics_label_value("cut \xE2\x82") == "cut \xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("a hostile description cannot forge a series") {
  const std::string hostile =
      "evil\"} 1\nibpm_port_up{node_guid=\"0xforged\",port=\"9\"} 1\n# TYPE x counter\\";
  const Fabric fabric = two_switches(hostile, "spine \"01\"\\");
  const std::vector<poll::PortResult> results{cabled(quiet_port(1)), cabled(quiet_port(2))};
  const std::string text = text_of(results, fabric);

  const std::regex sample(R"(^[a-z0-9_]+\{([a-z_]+="([^"\\]|\\.)*",?)*\} [-+0-9.eE]+$)");
  const std::vector<std::string> lines = sample_lines(text);
  for (const std::string& line : lines) {
    INFO(line);
    CHECK(std::regex_match(line, sample));
  }
  CHECK(count_prefix(lines, "ibpm_port_up{") == 2);
  CHECK(text.find("\nibpm_port_up{node_guid=\"0xforged") == std::string::npos);
  CHECK(text.find("\n# TYPE x") == std::string::npos);
  const auto labels = parse_labels(lines.front());
  CHECK(labels.at("node") == hostile);
  CHECK(labels.at("remote") == "spine \"01\"\\");
  CHECK(labels.at("node_guid") == "0x0002c90300001234");
  CHECK(labels.at("port") == "1");
  CHECK(labels.at("remote_guid") == "0x0002c90300005678");
  CHECK(labels.at("remote_port") == "1");
}

TEST_CASE("every family has HELP and TYPE once, its samples together, and no timestamps") {
  const Fabric fabric = two_switches("leaf01", "spine01");
  const std::string text = text_of({cabled(quiet_port(1)), cabled(quiet_port(2))}, fabric);
  const std::vector<std::string> lines = sample_lines(text);
  // up, 13 counters, link state and capacity, check state, degraded, flapping, XmitWait share:
  // 20 per quiet port (no BER window covered yet, no congestion); 8 figures of the sweep.
  CHECK(lines.size() == 2 * 20 + 8);
  CHECK(count_prefix(lines, "ibpm_port_symbol_errors_total{") == 2);
  CHECK(text.find("# TYPE ibpm_port_symbol_errors_total counter\n") != std::string::npos);
  for (const counters::CounterSpec& spec : counters::counter_specs())  // rates are rate()'s
    CHECK(text.find(std::string(spec.key) + "_per_second") == std::string::npos);
  // Data counters in bytes: 1000 words read.
  CHECK(text.find("ibpm_port_xmit_data_bytes_total{node_guid=\"0x0002c90300001234\",port=\"1\"") !=
        std::string::npos);
  for (const std::string& line : lines)
    if (line.rfind("ibpm_port_xmit_data_bytes_total{", 0) == 0)
      CHECK(line.substr(line.rfind(' ')) == " 4000");
  // 4x HDR: 4 lanes of 50 Gb/s after 64b/66b encoding, in bytes per second.
  CHECK(count_prefix(lines, "ibpm_port_link_capacity_bytes_per_second{") == 2);
  CHECK(text.find("ibpm_sweep_ports{scope=\"fabric\"} 0\n") != std::string::npos);
  CHECK(text.find("ibpm_sweep_store_checked{scope=\"fabric\"} 0\n") != std::string::npos);
  // Values only: one space, then the number, nothing after it.
  for (const std::string& line : lines) {
    const std::size_t close = line.rfind('}');
    CHECK(line.find(' ', close + 2) == std::string::npos);
  }
  // Each family's HELP and TYPE once.
  std::map<std::string, int> types;
  std::size_t from = 0;
  while ((from = text.find("# TYPE ", from)) != std::string::npos) {
    from += 7;
    ++types[text.substr(from, text.find(' ', from) - from)];
  }
  for (const auto& [name, times] : types) {
    INFO(name);
    CHECK(times == 1);
  }
}

TEST_CASE("series per port: at most 24 at the default setting, every counter with all") {
  const Fabric fabric = two_switches("leaf01", "spine01");
  std::vector<poll::PortResult> results{bad_cable_port(1), cabled(quiet_port(2))};
  std::vector<sweep::PortVerdict> verdicts = verdicts_of(results);
  verdicts[0].state = plugin::State::critical;
  verdicts[0].flapping = true;
  verdicts[0].congestion = sweep::CongestionPart::root;

  const auto standard = series_per_port(openmetrics_text(verdicts, fabric, {}));
  // The worst case: every series a port can give (a BER window judged, a congestion tree).
  CHECK(standard.at("0x0002c90300001234[1]") == 23);
  CHECK(standard.at("0x0002c90300001234[2]") == 20);
  for (const auto& [port, series] : standard) CHECK(series <= 24);

  OpenMetricsSettings all;
  all.all = true;
  const std::string wide = openmetrics_text(verdicts, fabric, {}, all);
  const auto every = series_per_port(wide);
  CHECK(every.at("0x0002c90300001234[1]") == 31);
  CHECK(every.at("0x0002c90300001234[2]") == 26);
  for (const counters::CounterSpec& spec : counters::counter_specs()) {
    INFO(spec.key);
    CHECK(wide.find("ibpm_port_" + std::string(spec.key)) != std::string::npos);
  }
  // An explicit list replaces the setting's counters.
  OpenMetricsSettings two;
  two.counters = parse_counter_list("symbol_errors,xmit_data");
  CHECK(series_per_port(openmetrics_text(verdicts, fabric, {}, two)).at("0x0002c90300001234[2]") ==
        20 - 13 + 2);
}

TEST_CASE("the sweep's judgements are gauges: state, BER and its bound, wait, degraded, flaps") {
  const Fabric fabric = leaf_spine_host();
  std::vector<poll::PortResult> results{bad_cable_port(1), cabled(quiet_port(2))};
  std::vector<sweep::PortVerdict> verdicts = verdicts_of(results);
  verdicts[0].state = plugin::State::critical;
  verdicts[0].flapping = true;
  verdicts[0].congestion = sweep::CongestionPart::root;
  verdicts[1].congestion = sweep::CongestionPart::victim;
  const std::string text = openmetrics_text(verdicts, fabric, {});
  std::map<std::string, std::map<std::string, double>> values;  // family -> port -> value
  for (const std::string& line : sample_lines(text)) {
    const auto labels = parse_labels(line);
    if (labels.contains("scope")) continue;
    values[line.substr(0, line.find('{'))][labels.at("port")] =
        std::stod(line.substr(line.rfind(' ')));
    CHECK(labels.at("level") == "leaf");
    CHECK(labels.at("remote_level") == "spine");
  }
  CHECK(values["ibpm_port_check_state"]["1"] == 2);
  CHECK(values["ibpm_port_check_state"]["2"] == 0);
  CHECK(values["ibpm_port_flapping"]["1"] == 1);
  CHECK(values["ibpm_port_flapping"]["2"] == 0);
  CHECK(values["ibpm_port_link_degraded"]["1"] == 1);
  CHECK(values["ibpm_port_link_degraded"]["2"] == 0);
  CHECK(values["ibpm_port_xmit_wait_ratio"]["1"] == Approx(0.35));
  CHECK(values["ibpm_port_xmit_wait_ratio"]["2"] == 0);
  // 100,000 symbol errors in the 12-minute window of a 2x HDR link: far over 1e-10, the lower
  // bound just under the ratio; a port without errors in a covered window has no BER series.
  const double ber = values["ibpm_port_symbol_ber"]["1"];
  const double lower = values["ibpm_port_symbol_ber_lower_bound"]["1"];
  CHECK(ber > 1e-10);
  CHECK(lower < ber);
  CHECK(lower > 0.9 * ber);
  CHECK_FALSE(values["ibpm_port_symbol_ber"].contains("2"));
  CHECK(values["ibpm_port_congestion"].size() == 2);
  CHECK(text.find("remote_level=\"spine\",role=\"root\"} 1\n") != std::string::npos);
  CHECK(text.find("remote_level=\"spine\",role=\"victim\"} 1\n") != std::string::npos);
  // 2 lanes of HDR: 2 x 50 Gb/s, in bytes per second.
  CHECK(values["ibpm_port_link_capacity_bytes_per_second"]["1"] == 2 * 50e9 / 8);
}

TEST_CASE("a counter list bounds the series, ports without counters or baseline say less") {
  const Fabric fabric = two_switches("leaf01", "spine01");
  const auto mask = parse_counter_list("symbol_errors,xmit_data");
  CHECK(mask == (counters::counter_bit(counters::Counter::symbol_errors) |
                 counters::counter_bit(counters::Counter::xmit_data)));
  CHECK(parse_counter_list("all") == kAllCounters);
  CHECK_THROWS_WITH(parse_counter_list("symbol_errors,bogus"), Catch::Contains("'bogus'"));

  poll::PortResult base = cabled(baseline_port(1));
  poll::PortResult gone = cabled(unanswered_port(2));
  gone.sample.live.reset();
  OpenMetricsSettings settings;
  settings.counters = mask;
  const std::string text = text_of({base, gone}, fabric, {}, settings);
  const std::vector<std::string> lines = sample_lines(text);
  // The baseline port: up, two raw counters, link state and capacity, check state, degraded,
  // flapping; no XmitWait share yet. The unanswered port: up 0 and its check state. Then the
  // sweep's 8 figures.
  CHECK(lines.size() == 8 + 2 + 8);
  CHECK(count_prefix(lines, "ibpm_port_xmit_wait_ratio") == 0);
  CHECK(count_prefix(lines, "ibpm_port_rcv_errors") == 0);
  CHECK(text.find("ibpm_port_up{node_guid=\"0x0002c90300001234\",port=\"2\"") != std::string::npos);
  CHECK(text.find("ibpm_port_up{node_guid=\"0x0002c90300001234\",port=\"2\",node=\"leaf01\","
                  "level=\"leaf\",remote_guid=\"0x0002c90300005678\",remote_port=\"2\","
                  "remote=\"spine01\",remote_level=\"leaf\"} 0\n") != std::string::npos);
}

TEST_CASE("the file is replaced whole, and promtool accepts it") {
  TempDir dir("openmetrics");
  const std::string path = (dir.path() / "ibpm.prom").string();
  write_text(path, "old\n");
  SweepFigures figures;
  figures.scope = "shard-1-of-2";
  figures.started = 1714564800.5;
  figures.duration = 0.25;
  figures.ports = 2;
  figures.ports_read = 2;
  const Fabric fabric = two_switches("leaf \"01\"\nx", "spine01");
  const std::vector<poll::PortResult> results{cabled(quiet_port(1)), cabled(quiet_port(2))};
  write_openmetrics(path, verdicts_of(results), fabric, figures);
  const std::string text = read_text(path);
  CHECK(text == text_of(results, fabric, figures));
  std::size_t files = 0;  // the file and its writers' lock file (.ibpm.prom.lock) only
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    if (entry.path().filename() != ".ibpm.prom.lock") ++files;
  CHECK(files == 1);

  const std::string promtool = find_program("promtool");
  if (promtool.empty()) IBPM_SKIP("promtool not installed (Debian package prometheus)");
  // promtool reads the text on its standard input.
  const ProcessRun check =
      run_process({"/bin/sh", "-c", "exec \"$0\" check metrics < \"$1\"", promtool, path});
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
  CHECK(check.out.empty());
}

TEST_CASE("an OpenMetrics file that cannot be written leaves the previous one whole") {
  TempDir dir("openmetrics-efbig");
  const std::string path = (dir.path() / "ibpm.prom").string();
  const Fabric fabric = two_switches("leaf01", "spine01");
  std::vector<poll::PortResult> results;
  for (PortNumber port = 1; port <= 36; ++port) results.push_back(cabled(quiet_port(port)));
  write_openmetrics(path, verdicts_of({results.front()}), fabric, {});
  const std::string before = read_text(path);
  // As under `ulimit -f` (SIGXFSZ ignored, as the commands do): the write fails with EFBIG.
  struct rlimit limit {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &limit) == 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = limit;
  small.rlim_cur = before.size() + 100;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  std::string reason;
  try {
    write_openmetrics(path, verdicts_of(results), fabric, {});
  } catch (const std::runtime_error& e) {
    reason = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &limit);
  std::signal(SIGXFSZ, old_handler);
  CHECK(reason.find(path) != std::string::npos);
  CHECK(read_text(path) == before);
  // No temporary left: the file and its writers' lock file (.ibpm.prom.lock) only.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    if (entry.path().filename() != ".ibpm.prom.lock") ++files;
  CHECK(files == 1);
}

// The hostile file both parsers read: descriptions that try to close their label, start a
// series or a TYPE line, end in a backslash, carry invalid UTF-8 and control characters.
const std::string kHostile = "evil\"} 1\nx{a=\"b\"} 2\n# TYPE y counter\\ \xE2\x82 \xFF\x01end";

std::string write_hostile_file(const TempDir& dir) {
  const std::string path = (dir.path() / "ibpm.prom").string();
  const Fabric fabric = two_switches(kHostile, "spine \"01\"\\\n");
  const std::vector<poll::PortResult> results{bad_cable_port(1), cabled(quiet_port(2))};
  std::vector<sweep::PortVerdict> verdicts = verdicts_of(results);
  verdicts[0].congestion = sweep::CongestionPart::victim;
  OpenMetricsSettings all;
  all.all = true;
  write_openmetrics(path, verdicts, fabric, {}, all);
  return path;
}

TEST_CASE("a file of hostile descriptions passes promtool check metrics") {
  TempDir dir("openmetrics-hostile");
  const std::string path = write_hostile_file(dir);
  const std::string promtool = find_program("promtool");
  if (promtool.empty()) IBPM_SKIP("promtool not installed (Debian package prometheus)");
  const ProcessRun check =
      run_process({"/bin/sh", "-c", "exec \"$0\" check metrics < \"$1\"", promtool, path});
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("a file of hostile descriptions parses in the Python client, labels whole") {
  TempDir dir("openmetrics-hostile-python");
  const std::string path = write_hostile_file(dir);
  // Debian's python3-prometheus-client (the system's python, not one first in PATH): the parser
  // of the text format node_exporter serves.
  const std::string python = "/usr/bin/python3";
  if (!std::filesystem::exists(python) ||
      run_process({python, "-c", "import prometheus_client.parser"}).exit_code != 0)
    IBPM_SKIP("python3-prometheus-client not installed (Debian package)");
  // The description as a parser must give it back: the label value unescaped.
  const std::string escaped = openmetrics_label_value(kHostile);
  const std::string expected = parse_labels("x{node=\"" + escaped + "\"} 1").at("node");
  CHECK(expected.find("\n# TYPE y counter\\") != std::string::npos);
  const std::string script =
      "import sys\n"
      "from prometheus_client.parser import text_string_to_metric_families\n"
      "text = open(sys.argv[1], encoding='utf-8').read()\n"
      "families = list(text_string_to_metric_families(text))\n"
      "up = [s for f in families for s in f.samples if s.name == 'ibpm_port_up']\n"
      "names = {f.name for f in families}\n"
      "print(len(up), sum(1 for s in up if s.labels['node'] == sys.argv[2]),\n"
      "      'y' in names or 'x' in names)\n";
  const ProcessRun parse = run_process({python, "-c", script, path, expected});
  INFO(parse.out << parse.err);
  CHECK(parse.exit_code == 0);
  CHECK(parse.first_line() == "2 2 False");
}

TEST_CASE("a re-poll replaces its ports' series in the sweep's file and keeps the others'") {
  TempDir dir("openmetrics-merge");
  const std::string path = (dir.path() / "ibpm.prom").string();
  const Fabric fabric = leaf_spine_host();
  SweepFigures sweep_figures;
  sweep_figures.started = 1714564800.5;
  sweep_figures.ports = 3;
  const std::vector<poll::PortResult> swept{cabled(quiet_port(1)), cabled(quiet_port(2)),
                                            cabled(quiet_port(3))};
  write_openmetrics(path, verdicts_of(swept), fabric, sweep_figures);
  const std::string before = read_text(path);
  // The re-poll found port 2 down and unread, and judged it CRITICAL.
  poll::PortResult down = cabled(unanswered_port(2));
  LinkState live;
  live.state = PortState::down;
  down.sample.live = live;
  const std::vector<poll::PortResult> repolled{down};
  std::vector<sweep::PortVerdict> verdicts = verdicts_of(repolled);
  verdicts[0].state = plugin::State::critical;
  SweepFigures repoll_figures;
  repoll_figures.scope = "nodes";
  merge_openmetrics_file(path, openmetrics_text(verdicts, fabric, repoll_figures));
  const std::string after = read_text(path);
  INFO(after);
  const std::vector<std::string> before_lines = sample_lines(before);
  const std::vector<std::string> lines = sample_lines(after);
  const std::string port2 = "{node_guid=\"0x0002c90300001234\",port=\"2\",";
  const auto has = [&](const std::string& text) { return after.find(text) != std::string::npos; };
  CHECK(has("ibpm_port_up" + port2));
  CHECK(has("ibpm_port_link_state" + port2));
  CHECK(has("ibpm_port_check_state" + port2));
  // Port 2: down, unread, CRITICAL; none of its counters of the sweep are left.
  for (const std::string& line : lines) {
    if (line.find(port2) == std::string::npos) continue;
    INFO(line);
    if (line.starts_with("ibpm_port_up{")) CHECK(line.ends_with("} 0"));
    if (line.starts_with("ibpm_port_link_state{")) CHECK(line.ends_with("} 1"));
    if (line.starts_with("ibpm_port_check_state{")) CHECK(line.ends_with("} 2"));
    CHECK(line.find("_total{") == std::string::npos);
  }
  // Ports 1 and 3 and the sweep's figures as the sweep wrote them; none of the re-poll's.
  for (const std::string& line : before_lines)
    if (line.find(port2) == std::string::npos) CHECK(has(line + "\n"));
  CHECK_FALSE(has("scope=\"nodes\""));
  // Each family's HELP and TYPE once, its samples together: what the parsers want.
  std::set<std::string> types;
  std::string family;
  std::set<std::string> closed;
  for (const std::string& line : lines) {
    if (line.starts_with("# TYPE ")) {
      const std::string name = line.substr(7, line.find(' ', 7) - 7);
      CHECK(types.insert(name).second);
      if (!family.empty()) closed.insert(family);
      family = name;
      continue;
    }
    if (line.front() == '#') continue;
    const std::string name = line.substr(0, line.find('{'));
    INFO(line);
    CHECK(name.starts_with(family));
    CHECK_FALSE(closed.contains(family));
  }
  // Read twice, the same: a second re-poll of the same port leaves one set of its series.
  merge_openmetrics_file(path, openmetrics_text(verdicts, fabric, repoll_figures));
  CHECK(read_text(path) == after);

  const std::string promtool = find_program("promtool");
  if (promtool.empty()) IBPM_SKIP("promtool not installed (Debian package prometheus)");
  const ProcessRun check =
      run_process({"/bin/sh", "-c", "exec \"$0\" check metrics < \"$1\"", promtool, path});
  INFO(check.out << check.err);
  CHECK(check.exit_code == 0);
}

TEST_CASE("a re-poll with no sweep file yet writes its ports' series alone") {
  TempDir dir("openmetrics-merge-new");
  const std::string path = (dir.path() / "ibpm.prom").string();
  const Fabric fabric = two_switches("leaf01", "spine01");
  const std::vector<poll::PortResult> repolled{cabled(quiet_port(1))};
  SweepFigures figures;
  figures.scope = "nodes";
  merge_openmetrics_file(path, text_of(repolled, fabric, figures));
  const std::string text = read_text(path);
  CHECK(text.find("ibpm_port_up{node_guid=\"0x0002c90300001234\",port=\"1\",") !=
        std::string::npos);
  CHECK(text.find("ibpm_sweep_") == std::string::npos);
  CHECK(text.find("# TYPE ibpm_port_up gauge\n") != std::string::npos);
}

}  // namespace openmetrics_test
