// SPDX-License-Identifier: MIT
// Many collectors, one set of series: the OpenMetrics files of `--shard 1/2` and `--shard 2/2`
// (leaf02 split between them by pins), each collector with its own state directory and a central
// store, together carry every cabled port of the fabric once and no series (metric name and full
// label set) twice, and the same port series a whole-fabric sweep writes. A collector that takes
// shard 2 over writes all of its ports, with the same series, in its first sweep; a cable taken
// out and accepted as the fabric leaves both files. A real node_exporter serving both files from
// one textfile folder reads them without a scrape error.
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "support/live_fabric.hpp"
#include "support/rrdcached_daemon.hpp"
#include "support/simulator.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// One sample line of the text format: name, labels (sorted by name), value.
struct Sample {
  std::string metric;
  std::map<std::string, std::string> labels;
  std::string value;

  // The series' identity: its name and full label set.
  std::string key() const {
    std::string text = metric + "{";
    for (const auto& [name, value] : labels) text += name + "=\"" + value + "\",";
    return text + "}";
  }
  // "0xGUID[port]" of a port's series, "" for the sweep's own figures.
  std::string port() const {
    const auto guid = labels.find("node_guid");
    return guid == labels.end() ? "" : guid->second + "[" + labels.at("port") + "]";
  }
};

// Every sample of a file, label values unescaped.
std::vector<Sample> read_samples(const fs::path& path) {
  std::vector<Sample> samples;
  std::ifstream in(path);
  REQUIRE(in);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    Sample s;
    std::size_t i = line.find_first_of("{ ");
    s.metric = line.substr(0, i);
    if (line[i] == '{') {
      ++i;
      while (line[i] != '}') {
        const std::size_t eq = line.find("=\"", i);
        const std::string name = line.substr(i, eq - i);
        std::string value;
        for (i = eq + 2; line[i] != '"'; ++i) value += line[i] == '\\' ? line[++i] : line[i];
        INFO(line);
        REQUIRE(s.labels.emplace(name, value).second);  // no label twice
        if (line[++i] == ',') ++i;
      }
      ++i;
    }
    s.value = line.substr(i + 1);
    samples.push_back(std::move(s));
  }
  return samples;
}

// What the files of the collectors hold together.
struct Union {
  std::map<std::string, std::size_t> series;             // key -> files carrying it
  std::map<std::string, std::set<std::string>> port_in;  // port -> files with a series of it
  std::set<std::string> port_series;                     // keys of ibpm_port_* series
};

// Reads the files; each file's ibpm_sweep_ports says how many ports it carries.
Union union_of(const std::vector<fs::path>& files) {
  Union all;
  for (const fs::path& file : files) {
    INFO(file);
    std::set<std::string> ports;
    std::optional<std::string> said;
    for (const Sample& s : read_samples(file)) {
      ++all.series[s.key()];
      if (s.metric == "ibpm_sweep_ports") said = s.value;
      if (s.port().empty()) continue;
      ports.insert(s.port());
      all.port_in[s.port()].insert(file.string());
      all.port_series.insert(s.key());
    }
    REQUIRE(said);
    CHECK(*said == std::to_string(ports.size()));
  }
  return all;
}

// No series in two files (or twice in one), every port of `expected` in exactly one file and no
// other port.
void check_one_set(const Union& all, const std::set<std::string>& expected) {
  for (const auto& [key, count] : all.series) {
    INFO(key);
    CHECK(count == 1);
  }
  std::set<std::string> ports;
  for (const auto& [port, files] : all.port_in) {
    INFO(port);
    CHECK(files.size() == 1);
    ports.insert(port);
  }
  CHECK(ports == expected);
}

}  // namespace

TEST_CASE(
    "Two shards' OpenMetrics files carry every port once, through a take-over and a cable "
    "taken out") {
  IBPM_REQUIRE_SIMULATOR();
  LiveFabric live = LiveFabric::start();
  TempDir work("openmetrics-shards");
  const fs::path dir = work.path();
  Rrdcached store(dir / "store", Listen::tcp);
  REQUIRE(store.wait_until_listening());
  // leaf02 split by pins: ports 1-2 to shard 2, 3-12 to shard 1; the rest by the hash.
  const std::string delegation = (dir / "delegation.conf").string();
  write_text(delegation, "shards 2\npin 2 leaf02 1-2\npin 1 leaf02 3-12\n");

  // Collectors: A polls shard 1, B shard 2 until C takes it over; each its own state and file.
  struct Collector {
    std::string name, shard;
    fs::path state, prom;
  };
  const auto collector = [&](const std::string& name, const std::string& shard) {
    Collector c{name, shard, dir / ("state-" + name), dir / ("textfile-" + name) / "ibpm.prom"};
    fs::create_directories(c.state);
    fs::create_directories(c.prom.parent_path());
    return c;
  };
  const Collector a = collector("a", "1/2"), b = collector("b", "2/2"), c = collector("c", "2/2");
  const auto sweep = [&](const Collector& k, std::vector<std::string> more = {}) {
    std::vector<std::string> args{"--state-dir",   k.state.string(), "--no-syslog",  "--rrdcached",
                                  store.address(), "--shard",        k.shard,        "--delegation",
                                  delegation,      "--openmetrics",  k.prom.string()};
    args.insert(args.end(), more.begin(), more.end());
    const ProcessRun run = live.run("check_ib_fabric", args);
    INFO(k.name << ": " << run.out << run.err);
    CHECK(run.exit_code != 3);
    REQUIRE(fs::exists(k.prom));
    return run;
  };

  // Every cabled port of the net file, as the files name them.
  std::set<std::string> every_port;
  for (const std::string& host : live.tree.hosts) every_port.insert(live.guid_of(host) + "[1]");
  for (const auto& level : live.tree.switches)
    for (const std::string& sw : level)
      for (const int p : live.cabled_ports(sw))
        every_port.insert(live.guid_of(sw) + "[" + std::to_string(p) + "]");
  REQUIRE(every_port.size() == 144);

  // A whole-fabric sweep beside them (its own state, no store): the series to cover.
  const fs::path full_state = dir / "state-full", full_prom = dir / "textfile-full" / "ibpm.prom";
  fs::create_directories(full_prom.parent_path());
  const std::vector<std::string> full_args{"--state-dir", full_state.string(), "--no-syslog",
                                           "--openmetrics", full_prom.string()};
  for (int i = 0; i < 2; ++i) {
    std::this_thread::sleep_for(1100ms);  // the store takes one update a second per file
    REQUIRE(live.run("check_ib_fabric", full_args).exit_code == 0);
    REQUIRE(sweep(a).exit_code == 0);
    REQUIRE(sweep(b).exit_code == 0);
  }
  const Union full = union_of({full_prom});
  check_one_set(full, every_port);

  {
    INFO("shards 1/2 and 2/2");
    const Union shards = union_of({a.prom, b.prom});
    check_one_set(shards, every_port);
    CHECK(shards.port_series == full.port_series);  // the same series, each in one file
    // leaf02's ports in both files: 1-2 in B's, the rest in A's.
    const std::string leaf02 = live.guid_of("leaf02");
    for (const int p : live.cabled_ports("leaf02")) {
      INFO("leaf02[" << p << "]");
      const auto& files = shards.port_in.at(leaf02 + "[" + std::to_string(p) + "]");
      CHECK(*files.begin() == (p <= 2 ? b.prom : a.prom).string());
    }
  }

  // B stops (its host and its node_exporter with it); C, a collector that never swept, takes
  // shard 2 over. Its first sweep writes every port of the shard, with the series B wrote (the
  // store's last samples give it rates at once).
  const std::set<std::string> b_series = union_of({b.prom}).port_series;
  const std::string b_text = read_text(b.prom);
  fs::remove(b.prom);
  std::this_thread::sleep_for(1100ms);
  const ProcessRun first = sweep(c);
  CHECK(first.first_line().find("collecting baseline") == std::string::npos);
  {
    INFO("shard 2 taken over");
    const Union taken = union_of({a.prom, c.prom});
    check_one_set(taken, every_port);
    CHECK(union_of({c.prom}).port_series == b_series);
  }

  // A real node_exporter serving both collectors' files from one folder gathers them without
  // an error (a series that two files carry is an error it counts, and served once); B's file
  // left beside C's is counted, so the check can fail.
  const std::string exporter = find_program("prometheus-node-exporter"),
                    curl = find_program("curl");
  const auto gathering_errors = [&](const std::vector<fs::path>& files) {
    const fs::path folder = dir / ("textfile-served-" + std::to_string(files.size()));
    fs::create_directories(folder);
    for (const fs::path& file : files)
      fs::copy_file(file, folder / (file.parent_path().filename().string() + ".prom"));
    const int port = free_loopback_port();
    BackgroundProcess node_exporter(
        {exporter, "--web.listen-address=127.0.0.1:" + std::to_string(port),
         "--collector.disable-defaults", "--collector.textfile",
         "--collector.textfile.directory=" + folder.string()},
        folder.string() + ".log");
    const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/metrics";
    ProcessRun page;
    for (int i = 0; i < 100; ++i) {
      page = run_process({curl, "-sf", url});
      if (page.exit_code == 0) break;
      std::this_thread::sleep_for(100ms);
    }
    REQUIRE(page.exit_code == 0);
    CHECK(page.out.find("node_textfile_scrape_error 0") != std::string::npos);
    // The first scrape's gathering errors show in the second's page.
    page = run_process({curl, "-sf", url});
    REQUIRE(page.exit_code == 0);
    const std::string counter = "promhttp_metric_handler_errors_total{cause=\"gathering\"} ";
    const std::size_t at = page.out.find(counter);
    REQUIRE(at != std::string::npos);
    return page.out.substr(at + counter.size(), page.out.find('\n', at) - at - counter.size());
  };
  if (!exporter.empty() && !curl.empty()) {
    CHECK(gathering_errors({a.prom, c.prom}) == "0");
    const fs::path stale = dir / "textfile-b-stale" / "ibpm.prom";
    fs::create_directories(stale.parent_path());
    write_text(stale, b_text);
    CHECK(gathering_errors({a.prom, c.prom, stale}) != "0");
  } else {
    WARN("node_exporter or curl not installed: the files were not served");
  }

  // A host's cable taken out: while the operator has not accepted it, its switch port stays in
  // one file (Down); once the fabric without it is accepted on both collectors, the cable's ports
  // leave both files, and the others stay in exactly one.
  const std::string host = live.peer_name("leaf03", 2);  // "cn0014[1]"
  const std::string host_node = host.substr(0, host.find('['));
  const std::string leaf_port = live.guid_of("leaf03") + "[2]";
  const std::string host_port = live.guid_of(host_node) + "[1]";
  live.console("Unlink \"leaf03\"[2]");
  ConsoleUndo relink(live, "ReLink \"leaf03\"[2]");
  std::this_thread::sleep_for(1100ms);
  for (const Collector* k : {&a, &c})
    sweep(*k, {"--rediscover-after", "1", "--port-info-every", "1"});
  {
    INFO("cable out, not accepted");
    // The host behind the cable is out of reach (a node without a LID): its port may be left
    // out, the leaf's stays, Down.
    const Union out = union_of({a.prom, c.prom});
    std::set<std::string> expected = every_port;
    if (!out.port_in.contains(host_port)) expected.erase(host_port);
    check_one_set(out, expected);
    REQUIRE(out.port_in.contains(leaf_port));
    std::vector<std::string> states;
    for (const Sample& s : read_samples(*out.port_in.at(leaf_port).begin()))
      if (s.metric == "ibpm_port_link_state" && s.port() == leaf_port) states.push_back(s.value);
    CHECK(states == std::vector<std::string>{"1"});  // Down
  }
  for (const Collector* k : {&a, &c}) {
    const ProcessRun accepted =
        live.run("check_ib_topology", {"--state-dir", k->state.string(), "--write-baseline",
                                       (k->state / "baseline.cache").string()});
    INFO(accepted.out << accepted.err);
    REQUIRE(accepted.out.find("baseline written to ") != std::string::npos);
  }
  std::this_thread::sleep_for(1100ms);
  for (const Collector* k : {&a, &c}) sweep(*k);
  {
    INFO("cable out, accepted");
    std::set<std::string> left = every_port;
    left.erase(leaf_port);
    left.erase(host_port);
    check_one_set(union_of({a.prom, c.prom}), left);
  }
}
