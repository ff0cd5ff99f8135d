// SPDX-License-Identifier: MIT
// Per-subtree aggregates: the four locality sums of every subtree (gen, con, out, in; see
// traffic_locality.hpp) are linear in the ports' rates, so each sweep scope writes, once per run,
// its partial sums over the ports it polled (PortStore::write_aggregates), and a locality report
// over any window reads a few files per subtree instead of every port's.
//
// Each direction is counted once over all scopes: read at the sender's PortXmitData when the
// sweeps poll the sender, else at the receiver's PortRcvData (as history::link_usage falls back),
// by the scope that polls that port. A subtree's file is named by its first root's GUID and a
// hash of its cables ("0x0002c90300a1b2c3-5f0e..."): a subtree whose hosts or border changed
// (the topology changed) gets a new file, and the old one is not read for it.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "locality/node_sets.hpp"
#include "locality/set_cables.hpp"
#include "state/port_store.hpp"

namespace ibpm::locality {

struct SubtreeAggregate {
  std::string file_name;
  SetCables cables;
  std::size_t directions() const { return 2 * (cables.host.size() + cables.border.size()); }
};

// The aggregates of `sets` (the subtrees of subtree_sets, or some of them), by set.
std::vector<SubtreeAggregate> subtree_aggregates(const Fabric& fabric,
                                                 const std::vector<NodeSet>& sets);

// A scope's rate of the direction `from` -> `to` in octets per second: nullopt when this scope
// does not measure it (another scope does, or the port gave no rate in this run).
using DirectionRate = std::function<std::optional<double>(const PortRef& from, const PortRef& to)>;

// One scope's partial sums of each aggregate: values in state::AggregateSource order.
std::vector<state::PortStore::AggregateWrite> aggregate_sums(
    const Fabric& fabric, const std::vector<SubtreeAggregate>& aggregates,
    const DirectionRate& rate);

// The same straight from the sets, one subtree's cables at a time (what a sweep does: it keeps
// no subtree's cables past its sums).
std::vector<state::PortStore::AggregateWrite> subtree_sums(const Fabric& fabric,
                                                           const std::vector<NodeSet>& sets,
                                                           const DirectionRate& rate);

}  // namespace ibpm::locality
