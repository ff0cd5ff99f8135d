// SPDX-License-Identifier: MIT
// Node ids for ibsim net files. ibsim names every node by a quoted string that must be unique, at
// most 64 bytes, and free of '"' (ends the id), '#' and '@' (ibsim's module/alias syntax); our
// files also keep '=' out because ibsim reads "x=" anywhere after a port's peer as an option.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "fabric/fabric.hpp"

namespace ibpm::dump {

inline constexpr std::size_t kIbsimMaxId = 64;

// True if the text can be an ibsim node id as it is (printable ASCII only, no reserved characters,
// no leading or trailing blanks, 1..64 bytes).
bool ibsim_safe_id(std::string_view text);

// A unique id per node: its description when that is safe and no other node has it; otherwise the
// description with unsafe bytes replaced by '_' followed by the node GUID, or "S-<guid>" style ids
// for nodes without a description.
std::unordered_map<Guid, std::string> ibsim_node_names(const Fabric& fabric);

}  // namespace ibpm::dump
