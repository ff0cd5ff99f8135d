// SPDX-License-Identifier: MIT

#include "layout/state_layout.hpp"

#include <array>
#include <charconv>

namespace ibpm::layout {

void StateLayout::append_dir(std::string& path) const {
  path += dir_;
  if (!dir_.empty() && dir_.back() != '/') path += '/';
}

std::string StateLayout::in_dir(const std::string& name) const {
  std::string path;
  path.reserve(dir_.size() + 1 + name.size());
  append_dir(path);
  path += name;
  return path;
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

std::string StateLayout::store_failure(const std::string& file_name) const {
  return in_dir("samples/" + file_name + ".store-failed");
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

std::string StateLayout::lost_cables() const { return in_dir("lost-cables.ibnetdiscover"); }

std::string StateLayout::aggregates_dir() const { return in_dir(relative_aggregates_dir()); }

std::string StateLayout::relative_aggregates_dir() { return "aggregates"; }

std::string StateLayout::aggregate_scope_dir(const std::string& scope) const {
  return in_dir(relative_aggregates_dir() + "/" + scope);
}

std::string StateLayout::aggregate(const std::string& scope, const std::string& name) const {
  return in_dir(relative_aggregate(scope, name));
}

std::string StateLayout::relative_aggregate(const std::string& scope, const std::string& name) {
  return relative_aggregates_dir() + "/" + scope + "/" + name + kAggregateExtension;
}

std::string StateLayout::port_history(Guid node, PortNumber port) const {
  std::string path;
  path.reserve(dir_.size() + 1 + kPortHistoryLength);
  append_port_history(path, node, port);
  return path;
}

std::string StateLayout::relative_port_history(Guid node, PortNumber port) {
  std::string path;
  path.reserve(kPortHistoryLength);
  append_relative_port_history(path, node, port);
  return path;
}

void StateLayout::append_port_history(std::string& path, Guid node, PortNumber port) const {
  append_dir(path);  // "DIR/" as every other name is joined
  append_relative_port_history(path, node, port);
}

void StateLayout::append_relative_port_history(std::string& path, Guid node, PortNumber port) {
  append_guid(path, node);
  path += "/port";
  std::array<char, 4> number{};
  const auto end = std::to_chars(number.data(), number.data() + number.size(), port).ptr;
  path.append(number.data(), end);
  path += ".rrd";
}

}  // namespace ibpm::layout
