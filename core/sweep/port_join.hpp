// SPDX-License-Identifier: MIT
// Ports that came into service after the last discovery (trap 64, a GID in service: its
// interface ID is the port GUID), learnt without discovering the fabric again, so that the event
// listener's re-poll adds them to the saved topology and the next sweep polls them. Per port
// GUID the topology lacks: the SA's NodeRecord for it (its LID, NodeInfo, NodeDescription), the
// SA's LinkRecords from that LID (where its cables lead: the LID and port at the far end, up to
// 24: the answer's first segment) and the PortInfo of each cabled port read from the node (state,
// width, speed): at most 3 + its cabled ports MADs. A cable whose far end the topology does not
// hold is left out and said: the next discovery finds it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "fabric/fabric.hpp"
#include "mad/mad_engine.hpp"

namespace ibpm::sweep {

struct JoinedNode {
  Node node;  // its cabled ports only, with their state, width and speed
  std::vector<std::pair<PortNumber, PortRef>> cables;  // its port -> the far end's
};

struct PortJoin {
  std::vector<JoinedNode> joined;
  std::vector<std::string> notes;  // ports not learnt, cables left out: why
};

// `sa_lid`: the master SM's LID (the port's SMLID). GUIDs the fabric holds (as a node's or a
// port's) are skipped.
PortJoin learn_ports(mad::MadEngine& engine, const mad::EngineOptions& options, unsigned sa_lid,
                     const Fabric& fabric, const std::vector<Guid>& port_guids);

// Adds the node and its cables to `fabric` (a cable whose far end it lacks, or whose far port is
// cabled elsewhere, is left out); false when the node was there already.
bool add_joined(Fabric& fabric, const JoinedNode& joined);

// "cn0017 (port 0x...) cabled to leaf04[4]", for the events and the long output.
std::string describe_joined(const Fabric& fabric, const JoinedNode& joined,
                            const NodeNameMap* names);

}  // namespace ibpm::sweep
