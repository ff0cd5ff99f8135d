// SPDX-License-Identifier: MIT

#include "sim/traffic_command.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <stdexcept>

#include "sim/flows_file.hpp"
#include "sim/net_reader.hpp"
#include "sim/sim_state.hpp"
#include "sim/simulated_fabric.hpp"
#include "sim/traffic.hpp"

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
  fs::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", start.start);
    out << "# ibpm-sim traffic: the flows file whose counters are set, and its start (epoch s)\n"
        << "flows=" << start.flows_file << "\nstart=" << seconds << '\n';
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp.string());
  }
  fs::rename(tmp, path);
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
  TrafficPattern pattern(topology, flows);

  TrafficReport report;
  report.flows = flows.size();
  for (const Flow& f : flows) report.octets_per_second += f.octets_per_second;
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
  const std::vector<std::string> commands = pattern.counter_commands(report.seconds);
  std::set<std::string> ports;
  for (const std::string& c : commands) ports.insert(c.substr(0, c.find("] ") + 1));
  report.ports = ports.size();
  if (!commands.empty()) fabric.console(commands);
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
  return s.str();
}

}  // namespace ibpm::sim
