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
      load.wait_saturated = d->xmit_wait_saturated;
      load.rows_start = d->rows_start;
      load.rows_step = d->rows_step;
      load.rows.reserve(d->rows.size());
      for (const history::DirectionRow& row : d->rows)
        load.rows.push_back({row.utilization, row.wait_share, row.wait_saturated});
      if (load.utilization || load.wait_share || load.wait_saturated)
        loads.emplace(d->from, std::move(load));
    }
  return loads;
}

}  // namespace ibpm::analysis
