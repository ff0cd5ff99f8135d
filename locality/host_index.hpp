// SPDX-License-Identifier: MIT
// Finding hosts by what operators write: host names (the first word of the node-name-map name
// or NodeDescription, so both HCAs of a dual-rail host answer to it) and GUIDs (node or port).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm::locality {

class HostIndex {
 public:
  HostIndex(const Fabric& fabric, const NodeNameMap* names);
  // Node indices of the hosts the word names (a host name or 0x GUID); empty when none.
  std::vector<std::size_t> find(const std::string& word) const;

 private:
  std::unordered_map<std::string, std::vector<std::size_t>> by_name_;
  std::unordered_map<Guid, std::size_t> by_guid_;
};

}  // namespace ibpm::locality
