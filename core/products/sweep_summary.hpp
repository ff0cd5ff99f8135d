// SPDX-License-Identifier: MIT
// The sweep summary, STATE_DIR/sweep/fabric.json (shard-K-of-N.json for a collector's share of
// a fabric split among collectors), written and read: the last sweep's counts, timing, ports
// not OK, unreachable nodes, fabric totals and rate histograms, for the dashboard and other
// tools. Its "format" says the version (kSweepSummaryFormat); a file without one is version 1.
// What reads it back is in sweep_summary_reader.hpp, which the dashboard includes without the
// sweep's own headers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "fabric/types.hpp"
#include "products/histogram.hpp"
#include "products/sweep_summary_reader.hpp"
#include "sweep/sweep.hpp"
#include "sweep/sweep_report.hpp"

namespace ibpm::products {

// STATE_DIR/sweep/fabric.json, or shard-K-of-N.json.
std::string summary_path(const sweep::SweepOptions& options);

// The sweep summary as JSON (one line).
std::string summary_json(const sweep::SweepOptions& options, const sweep::SweepResult& sweep,
                         const std::vector<sweep::PortVerdict>& verdicts,
                         const std::vector<Histogram>& histograms);

}  // namespace ibpm::products
