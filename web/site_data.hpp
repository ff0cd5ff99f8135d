// SPDX-License-Identifier: MIT
// Everything the dashboard shows, gathered once: the topology and its levels, the link usage and
// per-port history over the window, the locality of every subtree, the map's annotations, the
// last sweep's summary and the changes against a baseline. Pages only format it.
#pragma once

#include <optional>
#include <string>

#include "analysis/collect.hpp"
#include "plugin/options.hpp"
#include "products/sweep_summary_reader.hpp"
#include "sm/judgement.hpp"
#include "topology/topology_diff.hpp"

namespace ibpm::web {

struct SiteOptions {
  std::string state_dir;
  history::HistoryOptions history;
  std::string baseline;      // a topology file to compare with (empty: degraded links only)
  std::string jobs;          // JOBID HOSTLIST lines: the jobs behind each cable (with routes.lft)
  bool read_history = true;  // false: the topology alone (no RRD files read)
};

using analysis::PortState;

// analysis::collect()'s result with every port's own history and last sample, plus what only
// the dashboard shows: the last sweep's summary and the changes against the baseline.
struct SiteData : analysis::FabricAnalysis {
  std::optional<products::SweepSummary> sweep;
  std::optional<std::string> sweep_error;  // why the summary could not be read
  topology::TopologyDiff diff;
  bool has_baseline = false;
  // The subnet managers as check_ib_sm last saw them (STATE_DIR/sm/*.state, the first in name
  // order), or why they could not be read; neither when check_ib_sm never ran here.
  std::optional<sm::Remembered> sms;
  std::optional<std::string> sms_error;
};

// Throws std::runtime_error with a one-line reason (topology, baseline or node-name-map).
SiteData collect_site_data(const plugin::FabricOptions& fabric_options, const SiteOptions& options);

}  // namespace ibpm::web
