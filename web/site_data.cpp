// SPDX-License-Identifier: MIT

#include "site_data.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "layout/state_layout.hpp"
#include "sm/remembered_file.hpp"

namespace ibpm::web {

namespace {

void read_sms(const std::string& state_dir, SiteData& data) {
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(layout::StateLayout(state_dir).sm_dir(), ec))
    if (entry.path().extension() == layout::StateLayout::kSmStateExtension)
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) return;
  try {
    data.sms = sm::read_remembered(files.front().string());
  } catch (const std::exception& e) {
    data.sms_error = e.what();
  }
}

}  // namespace

SiteData collect_site_data(const plugin::FabricOptions& fabric_options,
                           const SiteOptions& options) {
  plugin::FabricOptions fabric = fabric_options;
  fabric.state_dir = options.state_dir;
  analysis::CollectOptions collect_options;
  collect_options.history = options.history;
  collect_options.read_history = options.read_history;
  collect_options.port_records = true;
  collect_options.annotate = true;
  collect_options.baseline = options.baseline;
  collect_options.route_jobs = options.jobs;

  SiteData data;
  static_cast<analysis::FabricAnalysis&>(data) = analysis::collect(fabric, collect_options);
  if (data.reader) {
    try {
      data.sweep = products::read_sweep_summary(options.state_dir);
    } catch (const std::exception& e) {
      data.sweep_error = e.what();
    }
    read_sms(options.state_dir, data);
  } else if (options.read_history) {
    data.warnings.push_back("no state directory " + options.state_dir +
                            ": no counter history, no sweep summary");
  }
  data.has_baseline = data.baseline.has_value();
  data.diff = topology::compare_topology(data.baseline ? &data.baseline->fabric : nullptr,
                                         data.fabric(), data.name_map());
  return data;
}

}  // namespace ibpm::web
