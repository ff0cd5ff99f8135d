// SPDX-License-Identifier: MIT
// Node-name-map files in the infiniband-diags format: one "GUID name" per line, the name quoted
// or not, '#' starts a comment outside quotes. Applied wherever a node is named.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <unordered_map>

#include "fabric/types.hpp"

namespace ibpm {

class NodeNameMap {
 public:
  // Throws std::runtime_error naming the file and line for lines it cannot read.
  static NodeNameMap load(const std::string& path);
  // The --node-name-map option: nullopt when no file is named.
  static std::optional<NodeNameMap> load_if_named(const std::string& path);
  static NodeNameMap parse(std::istream& in, const std::string& origin);

  const std::string* find(Guid guid) const;
  std::size_t size() const { return names_.size(); }
  void set(Guid guid, std::string name) { names_[guid] = std::move(name); }

 private:
  std::unordered_map<Guid, std::string> names_;
};

}  // namespace ibpm
