// SPDX-License-Identifier: MIT

#include "products/monitoring_names.hpp"

#include <set>
#include <vector>

#include "fabric/unique_names.hpp"
#include "levels/fabric_levels.hpp"

namespace ibpm::products {

namespace {

bool printable_ascii(char c) { return c >= 0x20 && c < 0x7f; }

constexpr std::string_view kForbiddenInNames = "`~!$%^&*|'\"<>?,()=;#\\";

std::string guid_digits(Guid guid) { return format_guid(guid).substr(2); }

}  // namespace

std::string object_name(std::string_view text) {
  std::string name;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      if (!name.empty() && name.back() != '_') name += '_';
    } else if (printable_ascii(c) && kForbiddenInNames.find(c) == std::string_view::npos) {
      name += c;
    }
  }
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name;
}

bool is_reserved_name(const std::string& name) {
  static const std::set<std::string> names{"ibpm-node",   "ibpm-switch",   "ibpm-ca",
                                           "ibpm-fabric", "ibpm-settings", "ibpm-service"};
  return names.contains(name);
}

bool has_host(const Node& node, bool cas) {
  return node.type == NodeType::sw || (cas && node.type == NodeType::ca && levels::is_host(node));
}

std::map<Guid, std::string> host_names(const Fabric& fabric, const NodeNameMap* names, bool cas,
                                       const std::string& fabric_host) {
  std::vector<NamedNode> candidates;
  for (const Node& node : fabric.nodes()) {
    if (!has_host(node, cas)) continue;
    std::string candidate = object_name(display_name(node, names));
    if (candidate.empty())
      candidate = (node.type == NodeType::sw ? "switch-" : "ca-") + guid_digits(node.guid);
    candidates.push_back({node.guid, std::move(candidate)});
  }
  return unique_names(candidates, [&](const std::string& name) {
    return name == fabric_host || is_reserved_name(name);
  });
}

}  // namespace ibpm::products
