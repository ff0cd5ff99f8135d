// SPDX-License-Identifier: MIT

#include "sim/traffic_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/atomic_file.hpp"
#include "dump/ibnetdiscover_parser.hpp"
#include "routes/lft_file.hpp"
#include "sim/congested_traffic.hpp"
#include "sim/flows_file.hpp"
#include "sim/lft_paths.hpp"
#include "sim/net_reader.hpp"
#include "sim/sim_state.hpp"
#include "sim/simulated_fabric.hpp"
#include "sim/traffic.hpp"
#include "sim/traffic_truth.hpp"

namespace ibpm::sim {
namespace fs = std::filesystem;

namespace {

// The first counters hold this much traffic (see the header).
constexpr double kLeadSeconds = 1;

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

double epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string format_rate(double octets_per_second) {
  const char* units[] = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"};
  std::size_t u = 0;
  while (octets_per_second >= 1000 && u + 1 < std::size(units)) {
    octets_per_second /= 1000;
    ++u;
  }
  char text[48];
  std::snprintf(text, sizeof text, "%.1f %s", octets_per_second, units[u]);
  return text;
}

// The running simulation as a discovery reads it: its GUIDs and LIDs, which the net file does
// not hold.
Fabric discover_fabric(SimulatedFabric& fabric) {
  std::string dump, errors;
  if (fabric.run_client({"ibnetdiscover"}, &dump, &errors) != 0)
    throw std::runtime_error("ibnetdiscover failed on the simulation: " + errors);
  std::istringstream in(dump);
  return dump::parse_ibnetdiscover(in, "ibnetdiscover").fabric;
}

// Flows along the LFT file's tables, or along shortest paths.
TrafficPattern demanded_pattern(const NetTopology& topology, const std::vector<Flow>& flows,
                                const TrafficOptions& options, const Fabric* discovered) {
  if (!options.lft_file) return TrafficPattern(topology, flows);
  routes::ForwardingTables tables;
  try {
    tables = routes::read_lft_file(options.lft_file->string());
  } catch (const routes::LftFileError& e) {
    throw std::runtime_error(options.lft_file->string() + ": " + e.what());
  }
  try {
    return TrafficPattern(topology, flows, lft_paths(topology, *discovered, tables, flows));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(options.lft_file->string() + ": " + e.what());
  }
}

}  // namespace

std::optional<TrafficStart> read_traffic_start(const fs::path& sim_dir) {
  std::ifstream in(sim_dir / sim_files::traffic);
  if (!in) return std::nullopt;
  TrafficStart start;
  bool has_start = false;
  for (std::string line; std::getline(in, line);) {
    auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "flows") start.flows_file = value;
    if (key == "start") {
      try {
        start.start = std::stod(value);
        has_start = true;
      } catch (const std::exception&) {
        return std::nullopt;
      }
    }
  }
  if (!has_start || start.flows_file.empty()) return std::nullopt;
  return start;
}

void write_traffic_start(const fs::path& sim_dir, const TrafficStart& start) {
  const fs::path path = sim_dir / sim_files::traffic;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", start.start);
  base::replace_file_with(path.string(), [&](std::ostream& out) {
    out << "# ibpm-sim traffic: the flows file whose counters are set, and its start (epoch s)\n"
        << "flows=" << start.flows_file << "\nstart=" << seconds << '\n';
  });
}

TrafficTime traffic_time(const fs::path& sim_dir, const std::string& flows_file, bool restart,
                         double now) {
  auto recorded = read_traffic_start(sim_dir);
  if (!restart && recorded && recorded->flows_file == flows_file)
    return {std::max(0.0, now - recorded->start), false};
  write_traffic_start(sim_dir, {flows_file, now - kLeadSeconds});
  return {kLeadSeconds, true};
}

TrafficReport set_traffic(const TrafficOptions& options) {
  // Attach first: a folder without a simulation is the likeliest mistake.
  SimulatedFabric fabric = SimulatedFabric::attach(options.sim_dir);
  const fs::path net = options.sim_dir / sim_files::net;
  if (!fs::exists(net))
    throw std::runtime_error("no " + std::string(sim_files::net) + " in " +
                             options.sim_dir.string() +
                             " (a simulation started by an older ibpm-sim: start it again)");
  NetTopology topology;
  try {
    topology = parse_ibsim_net(read_text(net));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(net.string() + ": " + e.what());
  }
  std::vector<Flow> flows = read_flows_file(options.flows_file, topology);
  std::optional<Fabric> discovered;
  if (options.lft_file || options.truth_file) discovered = discover_fabric(fabric);
  const TrafficPattern demanded =
      demanded_pattern(topology, flows, options, discovered ? &*discovered : nullptr);
  const CongestedTraffic congested = congest(topology, demanded);
  std::vector<std::vector<NetPort>> paths;
  for (std::size_t f = 0; f < flows.size(); ++f) paths.push_back(demanded.path(f));
  const TrafficPattern pattern(topology, delivered_flows(flows, congested.outcome),
                               std::move(paths));

  TrafficReport report;
  report.flows = flows.size();
  for (const Flow& f : flows) report.octets_per_second += f.octets_per_second;
  for (const FlowOutcome& f : congested.outcome.flows) {
    report.delivered_octets_per_second += f.delivered;
    report.cut_flows += f.cut() ? 1 : 0;
  }
  for (const PortOutcome& p : congested.outcome.ports) {
    report.roots += p.role == PortRole::root ? 1 : 0;
    report.victims += p.role == PortRole::victim ? 1 : 0;
  }
  if (options.elapsed) {
    report.seconds = *options.elapsed;
    report.explicit_elapsed = true;
  } else {
    const TrafficTime time = traffic_time(
        options.sim_dir, fs::weakly_canonical(fs::absolute(options.flows_file)).string(),
        options.restart, epoch_seconds());
    report.seconds = time.seconds;
    report.started = time.started;
  }
  std::vector<std::string> commands = pattern.counter_commands(report.seconds);
  for (std::string& c :
       xmit_wait_commands(topology, congested, report.seconds, options.xmit_wait_tick_ns))
    commands.push_back(std::move(c));
  std::set<std::string> ports;
  for (const std::string& c : commands) ports.insert(c.substr(0, c.find("] ") + 1));
  report.ports = ports.size();
  if (!commands.empty()) fabric.console(commands);
  if (options.truth_file) {
    std::map<std::string, Guid> guid_by_name;
    for (const Node& node : discovered->nodes()) guid_by_name.emplace(node.description, node.guid);
    const std::string json = traffic_truth_json(topology, congested, flows, guid_by_name,
                                                report.seconds, options.xmit_wait_tick_ns);
    base::replace_file_with(options.truth_file->string(), [&](std::ostream& out) { out << json; });
  }
  return report;
}

std::string describe(const TrafficReport& report) {
  std::ostringstream s;
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f s", report.seconds);
  s << report.flows << (report.flows == 1 ? " flow, " : " flows, ")
    << format_rate(report.octets_per_second) << " in all, ";
  if (report.explicit_elapsed)
    s << seconds << " of traffic";
  else if (report.started)
    s << "started now (" << seconds << " of traffic)";
  else
    s << seconds << " since the start";
  s << ": data counters of " << report.ports << " ports set";
  if (report.cut_flows > 0)
    s << "; " << report.cut_flows << (report.cut_flows == 1 ? " flow" : " flows") << " cut ("
      << format_rate(report.delivered_octets_per_second) << " delivered in all), " << report.roots
      << (report.roots == 1 ? " root, " : " roots, ") << report.victims
      << (report.victims == 1 ? " victim" : " victims");
  return s.str();
}

}  // namespace ibpm::sim
