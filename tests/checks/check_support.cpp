#include "checks/check_support.hpp"

#include <rrd.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "fabric/types.hpp"
#include "sim/sim_test_support.hpp"
#include "topology/topology.hpp"

namespace ibpm::checks::test {

std::vector<std::string> CheckRun::lines() const {
  std::vector<std::string> result;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

LiveFabric LiveFabric::start(const std::vector<sim::LinkDegradation>& degraded) {
  sim::FatTree tree = sim::test::small_tree(36, 12);
  for (const sim::LinkDegradation& d : degraded) sim::degrade_link(tree.topology, d);
  sim::SimulatedFabric fabric = sim::SimulatedFabric::start_text(tree.net_file());
  return LiveFabric{std::move(tree), std::move(fabric)};
}

CheckRun LiveFabric::run(const std::string& program, const std::vector<std::string>& args) {
  std::vector<std::string> argv{std::string(IBPM_BIN_DIR) + "/" + program};
  argv.insert(argv.end(), args.begin(), args.end());
  CheckRun run;
  const auto start = std::chrono::steady_clock::now();
  run.exit_code = fabric.run_client(argv, &run.out, &run.err);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

std::string LiveFabric::peer_name(const std::string& node, int port) const {
  const auto index = tree.topology.find_node(node);
  if (!index) throw std::invalid_argument("no node " + node + " in the net file");
  const auto peer = tree.topology.peer({*index, port});
  if (!peer) throw std::invalid_argument(node + "[" + std::to_string(port) + "] is not cabled");
  return tree.topology.port_name(*peer);
}

std::vector<int> LiveFabric::cabled_ports(const std::string& node) const {
  const auto index = tree.topology.find_node(node);
  if (!index) throw std::invalid_argument("no node " + node + " in the net file");
  std::vector<int> ports;
  for (int p = 1; p <= tree.topology.node(*index).port_count; ++p)
    if (tree.topology.peer({*index, p})) ports.push_back(p);
  return ports;
}

std::string LiveFabric::guid_of(const std::string& node) {
  if (guids_.empty()) {
    std::string dump;
    if (fabric.run_client({"ibnetdiscover"}, &dump) != 0)
      throw std::runtime_error("ibnetdiscover failed");
    const auto path = fabric.work_dir() / "guids.ibnetdiscover";
    std::ofstream(path) << dump;
    const Topology topology = load_topology_file(path.string());
    for (const Node& n : topology.fabric.nodes()) guids_[n.description] = format_guid(n.guid);
  }
  const auto it = guids_.find(node);
  if (it == guids_.end()) throw std::invalid_argument("ibnetdiscover found no node " + node);
  return it->second;
}

ConsoleUndo::~ConsoleUndo() {
  try {
    live_.console(undo_);
  } catch (...) {
  }
}

StateDir::StateDir(const std::string& name) {
  static std::atomic<int> serial{0};
  path_ = std::filesystem::temp_directory_path() /
          ("ibpm-checks-" + name + "-" + std::to_string(::getpid()) + "-" +
           std::to_string(serial++));
  std::filesystem::remove_all(path_);
  std::filesystem::create_directories(path_);
}

StateDir::~StateDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string StateDir::port_rrd(LiveFabric& live, const std::string& node, int port) const {
  return (path_ / live.guid_of(node) / ("port" + std::to_string(port) + ".rrd")).string();
}

std::map<std::string, std::string> rrd_info(const std::string& path) {
  rrd_clear_error();
  rrd_info_t* info = rrd_info_r(path.c_str());
  if (!info) throw std::runtime_error("rrd_info_r " + path + ": " + rrd_get_error());
  std::map<std::string, std::string> values;
  for (rrd_info_t* i = info; i; i = i->next) {
    std::string text;
    switch (i->type) {
      case RD_I_VAL: {
        std::ostringstream number;
        number.precision(17);
        number << i->value.u_val;
        text = number.str();
        break;
      }
      case RD_I_CNT: text = std::to_string(i->value.u_cnt); break;
      case RD_I_STR: text = i->value.u_str ? i->value.u_str : ""; break;
      case RD_I_INT: text = std::to_string(i->value.u_int); break;
      default: break;
    }
    values[i->key] = text;
  }
  rrd_info_free(info);
  return values;
}

std::string last_ds(const std::string& path, const std::string& source) {
  const auto info = rrd_info(path);
  const auto it = info.find("ds[" + source + "].last_ds");
  if (it == info.end()) throw std::runtime_error(path + " has no data source " + source);
  return it->second;
}

double sample_time(const std::string& path) { return std::stod(last_ds(path, "sample_time")); }

std::optional<double> perf_value(const CheckRun& run, const std::string& label) {
  const std::string line = run.first_line();
  const auto bar = line.find(" | ");
  if (bar == std::string::npos) return std::nullopt;
  std::istringstream items(line.substr(bar + 3));
  for (std::string item; items >> item;) {
    if (item.rfind(label + "=", 0) != 0) continue;
    const std::string value = item.substr(label.size() + 1);
    char* end = nullptr;
    const double number = std::strtod(value.c_str(), &end);
    if (end == value.c_str()) return std::nullopt;
    return number;
  }
  return std::nullopt;
}

double relative_difference(double a, double b) {
  return b == 0 ? std::fabs(a - b) : std::fabs(a - b) / std::fabs(b);
}

double now_epoch_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace ibpm::checks::test
