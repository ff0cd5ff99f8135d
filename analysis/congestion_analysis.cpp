// SPDX-License-Identifier: MIT

#include "analysis/congestion_analysis.hpp"

namespace ibpm::analysis {

EgressLoads egress_loads(const std::vector<history::LinkUsage>& usage) {
  EgressLoads loads;
  for (const history::LinkUsage& link : usage)
    for (const history::DirectionUsage* d : {&link.a_to_b, &link.b_to_a}) {
      EgressLoad load;
      if (d->measured) load.utilization = d->average_util;
      if (d->xmit_wait_pct) load.wait_share = *d->xmit_wait_pct / 100.0;
      if (load.utilization || load.wait_share) loads.emplace(d->from, load);
    }
  return loads;
}

}  // namespace ibpm::analysis
