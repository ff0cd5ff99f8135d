#include "sweep/shared_state_errors.hpp"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace ibpm::sweep {

std::string state_error_cause(const std::string& error) {
  const std::size_t end = error.find(".rrd: ");
  if (end == std::string::npos || error.find(' ') < end) return error;
  return error.substr(end + 6);
}

std::vector<SharedStateError> take_shared_state_errors(std::vector<const PortVerdict*>& bad) {
  std::map<std::string, std::vector<const PortVerdict*>> by_cause;
  for (const PortVerdict* v : bad)
    if (!v->result->state_error.empty())
      by_cause[state_error_cause(v->result->state_error)].push_back(v);
  std::vector<SharedStateError> shared;
  for (auto& [cause, ports] : by_cause)
    if (ports.size() > 1) shared.push_back({cause, std::move(ports)});
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
