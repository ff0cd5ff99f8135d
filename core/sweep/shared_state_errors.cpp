// SPDX-License-Identifier: MIT

#include "sweep/shared_state_errors.hpp"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace ibpm::sweep {

std::pair<std::string, std::string> split_state_error(const std::string& error) {
  const std::size_t end = error.find(".rrd: ");
  if (end == std::string::npos || error.find(' ') < end) return {"", error};
  return {error.substr(0, end + 4), error.substr(end + 6)};
}

std::string SharedStateError::text(std::size_t named) const {
  std::string line = std::to_string(ports.size()) + " ports: state file: " + cause;
  if (files.empty() || named == 0) return line;
  const std::size_t shown = std::min(named, files.size());
  for (std::size_t i = 0; i < shown; ++i) line += (i ? ", " : " (") + files[i];
  if (files.size() > shown) line += " and " + std::to_string(files.size() - shown) + " more";
  return line + ")";
}

std::vector<SharedStateError> take_shared_state_errors(std::vector<const PortVerdict*>& bad) {
  std::map<std::string, SharedStateError> by_cause;
  for (const PortVerdict* v : bad) {
    if (!v->result->state_failed()) continue;
    auto [file, cause] = split_state_error(v->result->state_error);
    SharedStateError& group = by_cause[cause];
    group.ports.push_back(v);
    if (!file.empty()) group.files.push_back(std::move(file));
  }
  std::vector<SharedStateError> shared;
  for (auto& [cause, group] : by_cause)
    if (group.ports.size() > 1) {
      group.cause = cause;
      shared.push_back(std::move(group));
    }
  if (shared.empty()) return shared;
  std::stable_sort(shared.begin(), shared.end(),
                   [](const auto& a, const auto& b) { return a.ports.size() > b.ports.size(); });
  std::unordered_set<const PortVerdict*> grouped;
  for (const SharedStateError& group : shared)
    grouped.insert(group.ports.begin(), group.ports.end());
  std::erase_if(bad, [&grouped](const PortVerdict* v) { return grouped.contains(v); });
  return shared;
}

}  // namespace ibpm::sweep
