// SPDX-License-Identifier: MIT
// Two passes: candidates wanted once are taken first, so a disambiguated name never takes one.
#include "fabric/unique_names.hpp"

#include <set>

namespace ibpm {

std::map<Guid, std::string> unique_names(const std::vector<NamedNode>& nodes,
                                         const std::function<bool(const std::string&)>& reserved) {
  std::map<std::string, std::set<Guid>> wanted_by;
  std::set<Guid> seen;
  for (const NamedNode& node : nodes)
    if (seen.insert(node.guid).second) wanted_by[node.candidate].insert(node.guid);
  const auto is_reserved = [&](const std::string& name) { return reserved && reserved(name); };

  std::map<Guid, std::string> result;
  std::set<std::string> taken;
  for (const auto& [candidate, guids] : wanted_by) {
    if (guids.size() == 1 && !is_reserved(candidate)) {
      result[*guids.begin()] = candidate;
      taken.insert(candidate);
    }
  }
  for (const auto& [candidate, guids] : wanted_by) {
    if (guids.size() == 1 && !is_reserved(candidate)) continue;
    for (Guid guid : guids) {
      const std::string base = candidate + "-" + format_guid(guid).substr(2);
      std::string name = base;
      for (int n = 2; taken.contains(name) || is_reserved(name) || wanted_by.contains(name); ++n)
        name = base + "-" + std::to_string(n);
      taken.insert(name);
      result[guid] = name;
    }
  }
  return result;
}

}  // namespace ibpm
