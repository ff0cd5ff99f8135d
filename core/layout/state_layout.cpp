// SPDX-License-Identifier: MIT

#include "layout/state_layout.hpp"

namespace ibpm::layout {

std::string StateLayout::in_dir(const std::string& name) const {
  if (dir_.empty()) return name;
  return dir_.back() == '/' ? dir_ + name : dir_ + '/' + name;
}

std::string StateLayout::topology() const { return in_dir("topology.ibnetdiscover"); }

std::string StateLayout::slices_dir() const { return in_dir("targets"); }

std::string StateLayout::slice(const std::string& file_name) const {
  return in_dir("targets/" + file_name + ".ibnetdiscover");
}

std::string StateLayout::cache_snapshot() const { return in_dir("cache.fabric"); }

std::string StateLayout::samples_dir() const { return in_dir("samples"); }

std::string StateLayout::sample_record(const std::string& file_name) const {
  return in_dir("samples/" + file_name + kSampleRecordExtension);
}

std::string StateLayout::node_locks() const { return in_dir("node.locks"); }

std::string StateLayout::sweep_dir() const { return in_dir("sweep"); }

std::string StateLayout::sweep_summary(const std::string& scope) const {
  return in_dir("sweep/" + scope + kSweepSummaryExtension);
}

std::string StateLayout::routes() const { return in_dir("routes.lft"); }

std::string StateLayout::sm_dir() const { return in_dir("sm"); }

std::string StateLayout::sm_state(const std::string& ca, int port) const {
  return in_dir("sm/" + ca + "-" + std::to_string(port) + kSmStateExtension);
}

std::string StateLayout::baseline() const { return in_dir("baseline.cache"); }

std::string StateLayout::port_history(Guid node, PortNumber port) const {
  return in_dir(relative_port_history(node, port));
}

std::string StateLayout::relative_port_history(Guid node, PortNumber port) {
  return format_guid(node) + "/port" + std::to_string(port) + ".rrd";
}

}  // namespace ibpm::layout
