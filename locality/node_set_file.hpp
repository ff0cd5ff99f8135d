// Operator-defined node sets, one per line: "NAME: HOSTLIST|GUID ..." ('#' starts a comment).
// Example:  climate-job: cn[0001-0128]
//           storage: 0x0002c90300a1b2c3 0x0002c90300a1b2c4
#pragma once

#include <string>
#include <vector>

#include "locality/node_sets.hpp"

namespace ibpm::locality {

// Throws std::runtime_error "FILE:LINE: reason" for malformed lines and hosts not in the fabric.
std::vector<NodeSet> load_node_set_file(const std::string& path, const Fabric& fabric,
                                        const DownSets& down, const NodeNameMap* names);

}  // namespace ibpm::locality
