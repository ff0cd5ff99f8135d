// SPDX-License-Identifier: MIT

#include "locality/host_index.hpp"

#include <charconv>

#include "jobs/hostlist.hpp"
#include "levels/fabric_levels.hpp"

namespace ibpm::locality {

HostIndex::HostIndex(const Fabric& fabric, const NodeNameMap* names) {
  const auto& nodes = fabric.nodes();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!levels::is_host(nodes[i])) continue;
    by_name_[jobs::host_name(display_name(nodes[i], names))].push_back(i);
    by_guid_[nodes[i].guid] = i;
    nodes[i].for_each_port([&](const Port& p) {
      if (p.guid) by_guid_[*p.guid] = i;
    });
  }
}

std::vector<std::size_t> HostIndex::find(const std::string& word) const {
  if (word.size() > 2 && (word.starts_with("0x") || word.starts_with("0X"))) {
    Guid guid = 0;
    auto [end, error] = std::from_chars(word.data() + 2, word.data() + word.size(), guid, 16);
    if (error == std::errc{} && end == word.data() + word.size()) {
      auto found = by_guid_.find(guid);
      if (found != by_guid_.end()) return {found->second};
    }
  }
  auto found = by_name_.find(word);
  return found == by_name_.end() ? std::vector<std::size_t>{} : found->second;
}

}  // namespace ibpm::locality
