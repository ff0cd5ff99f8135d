// SPDX-License-Identifier: MIT
// The Prometheus exposition of a sweep: hostile descriptions stay inside their label, the
// allow-list bounds the series, ports without counters or baseline, the file replaced whole, and
// promtool's own check of the text.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>

#include "products/openmetrics.hpp"
#include "support/port_results.hpp"
#include "support/process.hpp"
#include "support/skip.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"
#include "two_switches.hpp"

using namespace ibpm;
using namespace ibpm::products;
using namespace ibpm::test;

namespace {

// A leaf (described `leaf`) whose ports 1 and 2 are cabled to a spine (described `spine`).
Fabric two_switches(const std::string& leaf, const std::string& spine) {
  Fabric fabric;
  add_two_switches(fabric, leaf, spine);
  return fabric;
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

}  // namespace

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
  const std::string text = openmetrics_text(results, fabric, {});

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
  const std::string text =
      openmetrics_text({cabled(quiet_port(1)), cabled(quiet_port(2))}, fabric, {});
  const std::vector<std::string> lines = sample_lines(text);
  // up, 17 counters raw and rate, state, width, speed: 38 per port; 8 figures of the sweep.
  CHECK(lines.size() == 2 * 38 + 8);
  CHECK(count_prefix(lines, "ibpm_port_symbol_errors_total{") == 2);
  CHECK(text.find("# TYPE ibpm_port_symbol_errors_total counter\n") != std::string::npos);
  CHECK(text.find("# TYPE ibpm_port_xmit_data_bytes_per_second gauge\n") != std::string::npos);
  // Data counters in bytes: 1000 words read.
  CHECK(text.find("ibpm_port_xmit_data_bytes_total{node_guid=\"0x0002c90300001234\",port=\"1\"") !=
        std::string::npos);
  for (const std::string& line : lines)
    if (line.rfind("ibpm_port_xmit_data_bytes_total{", 0) == 0)
      CHECK(line.substr(line.rfind(' ')) == " 4000");
  CHECK(text.find("ibpm_port_link_width_lanes{") != std::string::npos);
  CHECK(text.find("} 4\n") != std::string::npos);
  CHECK(text.find("ibpm_sweep_ports{scope=\"fabric\"} 0\n") != std::string::npos);
  CHECK(text.find("ibpm_sweep_store_checked{scope=\"fabric\"} 0\n") != std::string::npos);
  // Values only: one space, then the number, nothing after it.
  for (const std::string& line : lines) {
    const std::size_t close = line.rfind('}');
    CHECK(line.find(' ', close + 2) == std::string::npos);
  }
}

TEST_CASE("the allow-list bounds the series, ports without counters or baseline say less") {
  const Fabric fabric = two_switches("leaf01", "spine01");
  const auto mask = parse_counter_list("symbol_errors,xmit_data");
  CHECK(mask == (counters::counter_bit(counters::Counter::symbol_errors) |
                 counters::counter_bit(counters::Counter::xmit_data)));
  CHECK(parse_counter_list("all") == kAllCounters);
  CHECK_THROWS_WITH(parse_counter_list("symbol_errors,bogus"), Catch::Contains("'bogus'"));

  poll::PortResult base = cabled(baseline_port(1));
  poll::PortResult gone = cabled(unanswered_port(2));
  gone.sample.live.reset();
  const std::string text = openmetrics_text({base, gone}, fabric, {}, mask);
  const std::vector<std::string> lines = sample_lines(text);
  // The baseline port: up, two raw counters, link state, width and speed; no rates yet.
  // The unanswered port: up 0 only. Then the sweep's 8 figures.
  CHECK(lines.size() == 6 + 1 + 8);
  CHECK(count_prefix(lines, "ibpm_port_symbol_errors_per_second") == 0);
  CHECK(count_prefix(lines, "ibpm_port_rcv_errors") == 0);
  CHECK(text.find("ibpm_port_up{node_guid=\"0x0002c90300001234\",port=\"2\"") != std::string::npos);
  CHECK(text.find("port=\"2\",node=\"leaf01\",remote_guid=\"0x0002c90300005678\",remote_port=\"2\","
                  "remote=\"spine01\"} 0\n") != std::string::npos);
}

TEST_CASE("a rate is given as the sweep computed it, data in bytes per second") {
  const Fabric fabric = two_switches("leaf01", "spine01");
  poll::PortResult r = cabled(quiet_port(1));
  r = with_rate(r, counters::Counter::symbol_errors, 12.5);
  r = with_rate(r, counters::Counter::xmit_data, 1000);  // words per second
  const std::string text = openmetrics_text({r}, fabric, {});
  CHECK(text.find("ibpm_port_symbol_errors_per_second{node_guid=\"0x0002c90300001234\",port=\"1\","
                  "node=\"leaf01\",remote_guid=\"0x0002c90300005678\",remote_port=\"1\","
                  "remote=\"spine01\"} 12.5\n") != std::string::npos);
  CHECK(text.find("remote=\"spine01\"} 4000\n") != std::string::npos);
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
  write_openmetrics(path, {cabled(quiet_port(1)), cabled(quiet_port(2))}, fabric, figures);
  const std::string text = read_text(path);
  CHECK(text == openmetrics_text({cabled(quiet_port(1)), cabled(quiet_port(2))}, fabric, figures));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path()))
    ++files;
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
