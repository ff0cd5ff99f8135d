// SPDX-License-Identifier: MIT
// The one mapping ibpm-anonymize applies to every file of a run: each original GUID (node, port,
// system image) to a new one, each node description to a new name, so that a recording and the
// topology beside it still agree after the rewrite. New GUIDs count up from 0x0a00000000000001
// (skipping any original); names are switch-0001, host-0001 (with an HCA's " HCA-1" or
// " mlx5_0" kept, as host names are read from descriptions), router-0001, node-0001. The
// mapping can be written out as a key, kept at the site to read the anonymized results back.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::tools {

class AnonymousNames {
 public:
  // Learning: every original GUID and description, before any is rewritten (a new GUID must not
  // be one of them).
  void add_guid(Guid guid);
  void add_description(const std::string& description, NodeType type);

  // Rewriting: the new GUID (0 stays 0; a GUID never added is not rewritten: nullopt) and the
  // new name of a description (nullopt when never added).
  std::optional<Guid> guid(Guid original) const;
  std::optional<std::string> name(const std::string& original) const;
  bool has_guid(Guid original) const { return guids_.contains(original); }

  // Assigns the new GUIDs and names, in the order they were added.
  void assign();

  // The key: "guid 0xORIGINAL 0xNEW" and "name "ORIGINAL" "NEW"" lines (C-style escapes).
  void write_key(std::ostream& out) const;

  std::size_t guid_count() const { return guid_order_.size(); }
  std::size_t name_count() const { return name_order_.size(); }

 private:
  std::unordered_map<Guid, Guid> guids_;
  std::vector<Guid> guid_order_;
  std::unordered_map<std::string, std::string> names_;
  std::vector<std::pair<std::string, NodeType>> name_order_;
};

}  // namespace ibpm::tools
