// SPDX-License-Identifier: MIT
// The one mapping ibpm-anonymize applies to every file of a run: each original GUID (node, port,
// system image) to a new one, each node description to a new name, so that a recording and the
// topology beside it still agree after the rewrite. New GUIDs count up from 0x0a00000000000001
// (skipping any original); names are switch-0001, host-0001 (with an HCA's " HCA-1" or
// " mlx5_0" kept, as host names are read from descriptions), router-0001, node-0001. The
// mapping can be written out as a key (anonymize_key.hpp), kept at the site to read the
// anonymized results back, and given to a later run, which keeps its mappings and numbers the
// GUIDs and names it has not seen after them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm::tools {

class AnonymousNames {
 public:
  // Learning: every original GUID and description, before any is rewritten (a new GUID must not
  // be one of them).
  void add_guid(Guid guid);
  void add_description(const std::string& description, NodeType type);
  // A mapping an earlier run gave (from its key): kept as it is. Call before add_*; an original
  // kept is not assigned again. Throws std::invalid_argument when the original or the
  // anonymous value was kept already.
  void keep_guid(Guid original, Guid anonymous);
  void keep_name(const std::string& original, const std::string& anonymous);

  // Rewriting: the new GUID (0 stays 0; a GUID never added is not rewritten: nullopt) and the
  // new name of a description (nullopt when never added).
  std::optional<Guid> guid(Guid original) const;
  std::optional<std::string> name(const std::string& original) const;
  bool has_guid(Guid original) const { return guids_.contains(original); }

  // Assigns the new GUIDs and names, in the order they were added, after the kept ones: a new
  // GUID is never an original nor a kept anonymous GUID; a new name's number follows the highest
  // kept one of its kind (switch-0007 kept: the next switch is switch-0008).
  void assign();

  // Every mapping, kept ones first, then in the order added (for the key).
  std::vector<std::pair<Guid, Guid>> guid_mapping() const;
  std::vector<std::pair<std::string, std::string>> name_mapping() const;

  std::size_t guid_count() const { return guid_order_.size(); }
  std::size_t name_count() const { return name_order_.size(); }
  std::size_t kept_guid_count() const { return kept_guids_.size(); }
  std::size_t kept_name_count() const { return kept_names_.size(); }

 private:
  std::unordered_map<Guid, Guid> guids_;
  std::vector<Guid> guid_order_;
  std::unordered_map<std::string, std::string> names_;
  std::vector<std::pair<std::string, NodeType>> name_order_;
  // From a key: the originals kept, and the anonymous values they hold.
  std::unordered_set<Guid> kept_guids_;
  std::unordered_set<Guid> anonymous_guids_;
  std::unordered_set<std::string> kept_names_;
  std::unordered_set<std::string> anonymous_names_;
};

}  // namespace ibpm::tools
