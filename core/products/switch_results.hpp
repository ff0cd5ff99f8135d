// SPDX-License-Identifier: MIT
// Every switch's result from one sweep, as its passive ib-node service takes it: the status,
// text and perfdata check_ib_node would give for the switch's ports (poll/node_report), from
// the counters the sweep read, so that no switch is polled twice. A switch whose ports were not
// all read is UNKNOWN and says why. Hosts are named as ibpm-nagios-config names them.
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
  // Switches with only some of their cabled ports in this sweep (another shard has the rest):
  // no result from this sweep.
  std::size_t partial = 0;
};

SwitchResults switch_results(const sweep::SweepOptions& options, const sweep::SweepResult& sweep,
                             const SwitchResultOptions& settings);

}  // namespace ibpm::products
