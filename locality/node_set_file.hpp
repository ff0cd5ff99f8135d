// SPDX-License-Identifier: MIT
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

// A jobs file (JOBID HOSTLIST lines, as `squeue -h -o "%A %N"` prints them): one set per job,
// named "job JOBID", of its hosts in the fabric (a job's hosts outside the fabric are left out; a
// job with none is skipped with a line in `warnings`). Throws std::runtime_error with a one-line
// reason when the file cannot be read or a line is malformed.
std::vector<NodeSet> load_job_sets(const std::string& path, const Fabric& fabric,
                                   const DownSets& down, const NodeNameMap* names,
                                   std::vector<std::string>& warnings);

}  // namespace ibpm::locality
