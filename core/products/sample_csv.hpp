// SPDX-License-Identifier: MIT
// The samples of a sweep as CSV, for analysis outside the monitor: one row per port and sweep,
// keyed by node GUID and port, appended to one file run after run (and by several collectors,
// each polling its shard of the fabric).
//
// Columns: sweep_start, sample_time (epoch seconds, ms), node_guid (0x + 16 hex digits), port,
// node_type (switch/ca/router/unknown), lid, port_name, remote_name, answered (0/1), error
// (empty when fine), extended (0/1); the raw counters by perfdata label (as the PMA counts them:
// the data counters in 4-octet words); their rates as LABEL_per_s (as perfdata reports them:
// data in octets/s; a lower bound when saturated); saturated_mask (hex, bit i = counter i);
// xmit_util_pct, rcv_util_pct, xmit_wait_pct, interval_s, shard. Unknown values are empty.
// Text fields are quoted as RFC 4180 says (names are untrusted fabric data); lines end in "\n".
#pragma once

#include <string>
#include <vector>

#include "poll/port_result.hpp"

namespace ibpm::products {

// The first line of every sample CSV, without its line end.
std::string sample_csv_header();

// Appends one row per result. A new or empty file gets the header first; a file whose first line
// is not that header (someone else's, or an older column set) is refused untouched. Safe against
// other processes appending at the same time (see LockedAppend). Throws std::runtime_error
// naming the path.
void append_samples_csv(const std::string& path, double sweep_start_epoch,
                        const std::vector<poll::PortResult>& results,
                        const std::string& shard_label);

}  // namespace ibpm::products
