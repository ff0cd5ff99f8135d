// SPDX-License-Identifier: MIT
// One name per node where several nodes may want the same one (two switches both "leaf_01" once
// made safe, a host described as another node's disambiguated name): every collision resolves,
// and the result depends only on the set of candidates, never on the order nodes come in.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fabric/types.hpp"

namespace ibpm {

struct NamedNode {
  Guid guid = 0;
  std::string candidate;  // the name the node would like (already made safe by the caller)
};

// A candidate no other node wants and that is not `reserved` is kept. The others get
// "CANDIDATE-GUIDDIGITS" (GUID in 16 hex digits), then "-2", "-3", ... on that while it is
// taken, reserved or another node's candidate. A GUID listed twice keeps its first candidate.
std::map<Guid, std::string> unique_names(
    const std::vector<NamedNode>& nodes,
    const std::function<bool(const std::string&)>& reserved = {});

}  // namespace ibpm
