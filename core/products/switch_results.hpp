// SPDX-License-Identifier: MIT
// Every switch's result from one sweep, as its passive ib-node service takes it: the status,
// text and perfdata check_ib_node would give for the switch's ports (poll/node_report), from
// the counters the sweep read, so that no switch is polled twice. A switch whose ports were not
// all read is UNKNOWN and says why. Hosts are named as ibpm-nagios-config names them.
//
// With --shard, a switch whose ports pins split across shards gets its result from one shard
// only, the one that reads most of its ports (delegation/split_nodes.hpp): that result covers the
// ports this shard read and its text says which ports other shards read ("; ports 19-36 read by
// shard 3"). So every switch gets exactly one result per sweep, and no switch service goes stale
// because its ports are split.
#pragma once

#include <string>
#include <vector>

#include "products/nagios_spool.hpp"
#include "sweep/sweep.hpp"

namespace ibpm::products {

struct SwitchResultOptions {
  std::string fabric_host = "ib-fabric";  // as the generator's --fabric-host
  bool cas = false;                       // as the generator's --cas: CAs have hosts too
  std::string service = "ib-node";
  std::size_t shown = 3;  // worst ports named in each summary, as check_ib_node's default
};

struct SwitchResults {
  std::vector<PassiveResult> results;  // in fabric order
  // Switches split across shards whose result another shard gives (it reads more of their
  // ports): none from this sweep.
  std::size_t elsewhere = 0;
};

SwitchResults switch_results(const sweep::SweepOptions& options, const sweep::SweepResult& sweep,
                             const SwitchResultOptions& settings);

}  // namespace ibpm::products
