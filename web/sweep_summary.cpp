#include "sweep_summary.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ibpm::web {

namespace fs = std::filesystem;

namespace {

// The summary files, fabric.json first; shards only when there is no whole-fabric sweep.
std::vector<fs::path> summary_files(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir / "fabric.json", ec)) return {dir / "fabric.json"};
  std::vector<fs::path> shards;
  if (!fs::is_directory(dir, ec)) return shards;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("shard-") && name.ends_with(".json")) shards.push_back(entry.path());
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

long count(const nlohmann::json& json, const char* key) { return json.value(key, 0L); }

void add_file(SweepSummary& summary, const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot read");
  const nlohmann::json json = nlohmann::json::parse(in);
  const double started = json.value("started", 0.0);
  summary.started = summary.files.empty() ? started : std::min(summary.started, started);
  summary.duration = std::max(summary.duration, json.value("duration", 0.0));
  summary.fabric_ports = std::max(summary.fabric_ports, count(json, "fabric_ports"));
  summary.ports += count(json, "ports");
  summary.polled += count(json, "polled");
  summary.in_error += count(json, "in_error");
  summary.saturated += count(json, "saturated");
  summary.unreachable += count(json, "unreachable");
  summary.unreachable_nodes += count(json, "unreachable_nodes");
  if (json.contains("totals")) summary.xmit_octets_s += json["totals"].value("xmit_data", 0.0);
  for (const nlohmann::json& port : json.value("ports_not_ok", nlohmann::json::array())) {
    PortNotOk p;
    p.node = parse_guid(port.value("node_guid", "")).value_or(0);
    p.port = port.value("port", 0);
    p.name = port.value("name", "");
    p.remote = port.value("remote", "");
    p.state = port.value("state", "");
    p.reason = port.value("reason", "");
    summary.ports_not_ok.push_back(std::move(p));
  }
  summary.files.push_back(file.string());
}

}  // namespace

std::optional<SweepSummary> read_sweep_summary(const std::string& state_dir) {
  const std::vector<fs::path> files = summary_files(fs::path(state_dir) / "sweep");
  if (files.empty()) return std::nullopt;
  SweepSummary summary;
  for (const fs::path& file : files) {
    try {
      add_file(summary, file);
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(file.string() + ": not a sweep summary: " + e.what());
    }
  }
  return summary;
}

}  // namespace ibpm::web
