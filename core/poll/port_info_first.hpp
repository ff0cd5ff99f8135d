// SPDX-License-Identifier: MIT
// A re-poll's first pass. A trap says that a link of a switch changed state, not which one: every
// port's PortInfo is read first (one MAD a port, and one for a switch's port 0, whose
// CapabilityMask says how its speeds read), and only the ports whose link differs from what the
// last run that read them saw, or that were not reported OK then, have their counters read (two
// MADs a port). The others are carried: judged on the PortInfo just read, their error rates as
// that run reported them (OK), with no counter read. A re-poll of a 36-port switch one of whose
// links went down costs some 43 MADs instead of 110.
#pragma once

#include <optional>
#include <vector>

#include "mad/mad_engine.hpp"
#include "poll/port_result.hpp"
#include "poll/port_sampler.hpp"
#include "poll/target.hpp"
#include "state/sample_record.hpp"

namespace ibpm::poll {

// Each target's PortInfo as read now (in target order); nullopt where it was not answered.
std::vector<std::optional<LinkState>> read_links(mad::MadEngine& engine,
                                                 const std::vector<PortTarget>& targets,
                                                 const mad::EngineOptions& options);

// What a port's counters are read for: its link as read now differs from `before`'s (or either is
// unknown), or it was not reported OK (its rates are what the report would say again).
bool counters_needed(const std::optional<LinkState>& now, const state::PortMemory* before);

// The first pass over a run's targets: reads their PortInfo, marks the results of the ports whose
// counters are not needed as carried (answered, this PortInfo, a baseline's empty rates), and
// points the others' hints at the PortInfo just read (not asked again). `own`: the run's record;
// `sweeps`: the sweeps' record (what a port the run's own record lacks was last seen as), may be
// null. The newer memory of a port is the yardstick. `now`: the carried ports' time (the run's
// clock). `links` keeps the PortInfo the hints point at. Returns the targets to sample, by index.
std::vector<std::size_t> first_read_links(
    mad::MadEngine& engine, const std::vector<PortTarget>& targets, const state::SampleRecord* own,
    const state::SampleRecord* sweeps, const mad::EngineOptions& options, double now,
    std::vector<PortResult>& results, std::vector<SampleHint>& hints,
    std::vector<std::optional<LinkState>>& links);

}  // namespace ibpm::poll
