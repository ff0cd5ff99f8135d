// SPDX-License-Identifier: MIT
// Delegation files: what the operator decides about a sharded sweep beyond the even split.
//
//   shards 4                        # optional: the N this file is written for (--shard K/N)
//   collector 1 0x0002c90300a1b2c0  # shard 1's collector HCA, for --assign nearest
//   collector 2 "cn0170 HCA-1"      # quotes allow spaces in a name
//   pin 2 spine01                   # every port of spine01 to shard 2
//   pin 3 leaf05 1-18,20            # ports 1..18 and 20 of leaf05 to shard 3
//   pin 1 lid 42                    # the node at LID 42 (all its ports)
//
// Statements:
//   shards N                  at most once, anywhere in the file
//   collector SHARD NODE      at most one per shard; NODE is an HCA
//   pin SHARD NODE [PORTS]    PORTS: numbers and ranges, comma-separated, no spaces
// where NODE is a name or "lid LID". One statement per line, tokens separated by spaces or tabs;
// '#' starts a comment (outside quotes); blank lines are ignored. A node is named as --node
// names it: GUID (0x...), LID, node-name-map name or NodeDescription; a name in double quotes
// may contain spaces, and a quoted "lid" is a name, not the keyword. Shards are numbered 1..N
// as in --shard K/N.
//
// Errors name the file and line: an unknown keyword or node, a shard outside 1..N (N from the
// "shards" line), a bad port list or a port the node does not have, a port pinned twice (a pin
// of a whole node overlaps every other pin of that node), two collectors for one shard, one
// node collecting for two shards, a collector that is a switch.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/node_name_map.hpp"

namespace ibpm::delegation {

struct Pin {
  unsigned shard = 1;
  Guid node = 0;
  std::vector<PortNumber> ports;  // ascending; empty: all the node's ports
};

struct DelegationFile {
  std::vector<Pin> pins;                // in file order
  std::map<unsigned, Guid> collectors;  // shard -> node GUID of its collector's HCA
  std::optional<unsigned> shards;       // the N the file is written for, when it says so
};

// Throws std::runtime_error "PATH:LINE: reason" for a line it cannot use, "PATH: cannot read"
// when the file cannot be read.
DelegationFile load_delegation_file(const std::string& path, const Fabric& fabric,
                                    const NodeNameMap* names);

// The same from a stream; `origin` stands for PATH in messages.
DelegationFile parse_delegation_file(std::istream& in, const std::string& origin,
                                     const Fabric& fabric, const NodeNameMap* names);

}  // namespace ibpm::delegation
