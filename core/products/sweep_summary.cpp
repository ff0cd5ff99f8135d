// SPDX-License-Identifier: MIT

#include "products/sweep_summary.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "base/json.hpp"
#include "layout/state_layout.hpp"

namespace ibpm::products {

namespace fs = std::filesystem;

namespace {

using base::json_number;
using base::json_string;
using plugin::State;
using sweep::PortVerdict;
using sweep::SweepOptions;
using sweep::SweepResult;

std::string optional_number(const std::optional<double>& value) {
  return value ? json_number(*value) : "null";
}

std::string port_json(const PortVerdict& v) {
  const poll::PortTarget& t = *v.result->target;
  return "{\"node_guid\":" + json_string(format_guid(t.node)) +
         ",\"port\":" + std::to_string(t.port) + ",\"lid\":" + std::to_string(t.lid) +
         ",\"name\":" + json_string(t.name) + ",\"remote\":" + json_string(t.remote_name) +
         ",\"state\":" + json_string(plugin::to_string(v.state)) +
         ",\"reason\":" + json_string(v.reason()) + "}";
}

// The summary files, fabric.json first; shards only when there is no whole-fabric sweep.
std::vector<fs::path> summary_files(const layout::StateLayout& state) {
  const fs::path dir = state.sweep_dir();
  const fs::path fabric = state.sweep_summary("fabric");
  std::error_code ec;
  if (fs::is_regular_file(fabric, ec)) return {fabric};
  std::vector<fs::path> shards;
  if (!fs::is_directory(dir, ec)) return shards;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("shard-") && name.ends_with(layout::StateLayout::kSweepSummaryExtension))
      shards.push_back(entry.path());
  }
  std::sort(shards.begin(), shards.end());
  return shards;
}

long count(const nlohmann::json& json, const char* key) { return json.value(key, 0L); }

void add_file(SweepSummary& summary, const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file.string() + ": cannot read");
  const nlohmann::json json = nlohmann::json::parse(in);
  if (const int format = json.value("format", 1); format > kSweepSummaryFormat)
    throw std::runtime_error(file.string() + ": sweep summary format " + std::to_string(format) +
                             ", newer than this ibpm reads (" +
                             std::to_string(kSweepSummaryFormat) + ")");
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

std::string summary_path(const SweepOptions& options) {
  return layout::StateLayout(options.fabric.state_dir).sweep_summary(sweep::sweep_scope(options));
}

std::string summary_json(const SweepOptions& options, const SweepResult& sweep,
                         const std::vector<PortVerdict>& verdicts,
                         const std::vector<Histogram>& histograms) {
  const sweep::SweepCounts counts = sweep::count_ports(verdicts);
  std::string json = "{\"format\":" + std::to_string(kSweepSummaryFormat) +
                     ",\"started\":" + json_number(sweep.started) +
                     ",\"duration\":" + json_number(sweep.duration) +
                     ",\"poll_duration\":" + json_number(sweep.poll_duration) +
                     ",\"first_read\":" + optional_number(sweep.first_read) +
                     ",\"last_read\":" + optional_number(sweep.last_read) +
                     ",\"shard\":{\"index\":" + std::to_string(options.shard.index) +
                     ",\"count\":" + std::to_string(options.shard.count) + "}" +
                     ",\"topology\":" + json_string(sweep.topology.origin) +
                     ",\"fabric_ports\":" + std::to_string(sweep.fabric_ports) +
                     ",\"ports\":" + std::to_string(verdicts.size()) +
                     ",\"polled\":" + std::to_string(counts.polled) +
                     ",\"in_error\":" + std::to_string(counts.in_error) +
                     ",\"saturated\":" + std::to_string(counts.saturated) +
                     ",\"unreachable\":" + std::to_string(counts.unreachable) +
                     ",\"unreachable_nodes\":" + std::to_string(counts.unreachable_nodes.size()) +
                     ",\"baseline\":" + std::to_string(counts.baseline) +
                     ",\"mads\":" + std::to_string(sweep.mad_stats.sent) + ",\"totals\":{";
  bool first = true;
  for (const plugin::Perfdata& p : sweep::sweep_perfdata(sweep, verdicts, counts)) {
    json += (first ? "" : ",") + json_string(p.label) + ":" + json_number(p.value);
    first = false;
  }
  json += "},\"ports_not_ok\":[";
  first = true;
  for (const PortVerdict& v : verdicts) {
    if (v.state == State::ok) continue;
    json += (first ? "" : ",") + port_json(v);
    first = false;
  }
  json += "],\"histograms\":" + histograms_json(histograms) + "}\n";
  return json;
}

std::optional<SweepSummary> read_sweep_summary(const std::string& state_dir) {
  const std::vector<fs::path> files = summary_files(layout::StateLayout(state_dir));
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

}  // namespace ibpm::products
