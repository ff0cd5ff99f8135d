// SPDX-License-Identifier: MIT
// Hosts keep their own name or are left out (a host's name must be the one Slurm knows it by);
// switches are only labels, so theirs are mapped and made unique.
#include "locality/slurm_names.hpp"

#include <cctype>

#include "base/text.hpp"
#include "fabric/unique_names.hpp"
#include "jobs/hostlist.hpp"
#include "locality/slurm_topology.hpp"

namespace ibpm::locality {
namespace {

std::string single_quoted(std::string_view text) { return "'" + base::one_line(text) + "'"; }

}  // namespace

bool is_slurm_name(std::string_view name) {
  if (name.empty() || name.front() == '-') return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return false;
  return true;
}

SlurmNames slurm_names(const Fabric& fabric, const std::vector<std::size_t>& hosts,
                       const std::vector<std::size_t>& switches, const NodeNameMap* names) {
  SlurmNames result;
  for (std::size_t i : hosts) {
    const Node& node = fabric.nodes()[i];
    const std::string shown = display_name(node, names);
    const std::string name = jobs::host_name(shown);
    if (is_slurm_name(name))
      result.hosts[node.guid] = name;
    else
      result.warnings.push_back("host " + format_guid(node.guid) + " " + single_quoted(shown) +
                                " left out: " + single_quoted(name) +
                                " is not a name Slurm accepts");
  }
  std::vector<NamedNode> candidates;
  for (std::size_t i : switches) {
    const Node& node = fabric.nodes()[i];
    candidates.push_back({node.guid, slurm_switch_name(display_name(node, names))});
  }
  result.switches = unique_names(candidates);
  for (std::size_t i : switches) {
    const Node& node = fabric.nodes()[i];
    const std::string shown = display_name(node, names);
    const std::string& written = result.switches.at(node.guid);
    const std::string mapped = slurm_switch_name(shown);
    if (written != mapped)
      result.warnings.push_back("switch " + format_guid(node.guid) + " " + single_quoted(shown) +
                                " written as " + written + ": another switch is also " + mapped);
    else if (written != shown)
      result.warnings.push_back("switch " + format_guid(node.guid) + " " + single_quoted(shown) +
                                " written as " + written);
  }
  return result;
}

}  // namespace ibpm::locality
