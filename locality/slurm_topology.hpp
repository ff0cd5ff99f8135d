// SPDX-License-Identifier: MIT
// Slurm's topology.conf (topology/tree plugin): read as node sets (each SwitchName with the
// hosts below it), and written from the fabric (leaves with their hosts, every higher switch
// with the switches one level below it) so Slurm can place jobs by the real tree.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "locality/node_sets.hpp"

namespace ibpm::locality {

// Nodes Slurm knows that the fabric does not (down, or without InfiniBand) are left out; a
// switch none of whose nodes are in the fabric gives no set. Throws std::runtime_error
// "FILE:LINE: reason" for malformed lines and unknown or cyclic Switches= references.
std::vector<NodeSet> load_slurm_topology(const std::string& path, const Fabric& fabric,
                                         const DownSets& down, const NodeNameMap* names);

// Returns one warning per host left out (its name is not one Slurm accepts) and per switch whose
// name was mapped or told apart from another's (slurm_names.hpp).
std::vector<std::string> write_slurm_topology(std::ostream& out, const Fabric& fabric,
                                              const levels::FabricLevels& levels,
                                              const NodeNameMap* names);

// A name Slurm accepts as a SwitchName: letters, digits, '.', '_', '-'; anything else (and a
// leading '-') becomes '_'.
std::string slurm_switch_name(const std::string& name);

}  // namespace ibpm::locality
