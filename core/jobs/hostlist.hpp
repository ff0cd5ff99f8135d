// SPDX-License-Identifier: MIT
// Slurm hostlist expressions, both ways, and host names: the one grammar every reader of
// hostlists uses (jobs files, node-set files, Slurm topology files).
// "cn[0001-0004,0007],gpu01" is cn0001 cn0002 cn0003 cn0004 cn0007 gpu01. A bracket holds
// numbers and ranges separated by commas; a range keeps the width of its first number
// ("[08-10]": 08 09 10); several brackets in one name multiply out ("r[1-2]n[1-2]": r1n1 r1n2
// r2n1 r2n2).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ibpm::jobs {

class HostlistError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Hosts beyond this many in one expression are refused (a typo like [1-99999999]).
constexpr std::size_t kMaxHostlistHosts = 1'000'000;

// The hosts in order of the expression. Throws HostlistError naming the problem (an unclosed
// bracket, a range running backwards, an empty name, ...).
std::vector<std::string> expand_hostlist(std::string_view expression);

// The shortest hostlist of ranges over numeric suffixes of equal width ("cn[0001-0006,0009]");
// names without a numeric suffix are listed as they are. Sorted, duplicates dropped.
std::string compress_hostlist(std::vector<std::string> names);

// The host name of a CA: the NodeDescription's first word ("cn0001 HCA-1" -> "cn0001").
std::string host_name(std::string_view description);

}  // namespace ibpm::jobs
