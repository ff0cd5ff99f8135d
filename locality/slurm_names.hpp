// SPDX-License-Identifier: MIT
// The names ibpm-locality writes into Slurm's topology.conf. NodeDescriptions come from the hosts
// themselves (any root user sets its own), and topology.conf has no quoting: a ',' adds nodes, a
// '#' comments out the rest of the line, a CR or a blank splits it. So only names Slurm accepts
// are written: a host whose name is anything else is left out, a switch's name is mapped, and
// switches whose names collide are told apart; each of these gets a warning naming the GUID.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm::locality {

// Letters, digits, '.', '_' and '-', not empty and not starting with '-'.
bool is_slurm_name(std::string_view name);

struct SlurmNames {
  std::map<Guid, std::string> hosts;     // only hosts with a name Slurm accepts
  std::map<Guid, std::string> switches;  // every switch asked for, unique
  std::vector<std::string> warnings;     // one line each, printable
};

SlurmNames slurm_names(const Fabric& fabric, const std::vector<std::size_t>& hosts,
                       const std::vector<std::size_t>& switches, const NodeNameMap* names);

}  // namespace ibpm::locality
