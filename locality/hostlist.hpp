// Slurm-style hostlists: "cn[001-128,200],login1" <-> the names they stand for.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ibpm::locality {

// Expands comma-separated names with at most one bracket range per name ("cn[01-04,07]-ib").
// Throws std::invalid_argument with the reason for malformed text.
std::vector<std::string> expand_hostlist(std::string_view text);

// The shortest hostlist of ranges over numeric suffixes of equal width ("cn[0001-0006,0009]");
// names without a numeric suffix are listed as they are. Sorted, duplicates dropped.
std::string compress_hostlist(std::vector<std::string> names);

// The host name of a CA: the NodeDescription's first word ("cn0001 HCA-1" -> "cn0001").
std::string host_name(std::string_view description);

}  // namespace ibpm::locality
