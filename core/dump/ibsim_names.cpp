// SPDX-License-Identifier: MIT

#include "dump/ibsim_names.hpp"

#include <unordered_set>

#include "dump/fabric_order.hpp"
#include "dump/ibnetdiscover_syntax.hpp"
#include "dump/text_scan.hpp"

namespace ibpm::dump {
namespace {

bool safe_char(char c) {
  return c >= 0x20 && c <= 0x7e && c != '"' && c != '#' && c != '@' && c != '=';
}

std::string sanitized(std::string_view text, std::size_t max_size) {
  std::string out;
  for (char c : text) out += safe_char(c) ? c : '_';
  std::string_view trimmed = scan::trim(out);
  return std::string(trimmed.substr(0, max_size));
}

}  // namespace

bool ibsim_safe_id(std::string_view text) {
  if (text.empty() || text.size() > kIbsimMaxId) return false;
  if (text.front() == ' ' || text.back() == ' ') return false;
  for (char c : text)
    if (!safe_char(c)) return false;
  return true;
}

std::unordered_map<Guid, std::string> ibsim_node_names(const Fabric& fabric) {
  const std::vector<const Node*> nodes = nodes_in_write_order(fabric);
  std::unordered_map<std::string_view, int> uses;
  for (const Node* n : nodes) ++uses[n->description];

  std::unordered_map<Guid, std::string> names;
  std::unordered_set<std::string> taken;
  // Descriptions first, so that a generated id can never take a description's place.
  for (const Node* n : nodes) {
    if (uses[n->description] == 1 && ibsim_safe_id(n->description)) {
      names.emplace(n->guid, n->description);
      taken.insert(n->description);
    }
  }
  for (const Node* n : nodes) {
    if (names.contains(n->guid)) continue;
    const std::string guid = hex16(n->guid);
    std::string base = sanitized(n->description, kIbsimMaxId - guid.size() - 1);
    std::string name =
        base.empty() ? std::string(1, ibnd::id_prefix(n->type)) + "-" + guid : base + " " + guid;
    // Only a contrived fabric gets here (a description equal to another node's generated id).
    for (int i = 2; taken.contains(name); ++i) {
      std::string suffix = "~" + std::to_string(i);
      name = (base.empty()
                  ? guid
                  : base.substr(0, kIbsimMaxId - guid.size() - 1 - suffix.size()) + " " + guid) +
             suffix;
    }
    taken.insert(name);
    names.emplace(n->guid, std::move(name));
  }
  return names;
}

}  // namespace ibpm::dump
