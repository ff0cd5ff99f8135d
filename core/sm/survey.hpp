// SPDX-License-Identifier: MIT
// Asking the fabric about its SMs: the SA's SMInfoRecord table (from the SA at the local port's
// master SM LID), then SMInfo and NodeDescription of every SM it lists and of the port's master SM,
// in one parallel engine run; the SMs the last run knew are asked instead when the SA does not
// answer. SMInfo is answered by the SM itself, so
// an SM that is gone or stopped is seen as silent (no ActCount), not as absent.
//
// The MADs go through a MadLink: to the fabric (and a --record recording), or answered by a
// --replay recording, whose local port (its SM LID) and times then stand for the fabric's.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "fabric/node_name_map.hpp"
#include "mad/mad_engine.hpp"
#include "mad/mad_link.hpp"
#include "sm/judgement.hpp"

namespace ibpm::sm {

struct Survey {
  std::vector<SmSeen> sms;           // in LID order
  std::optional<double> sa_seconds;  // the SA query's time, nullopt when it was not answered
  std::string sa_problem;            // why the SA gave nothing ("no answer after 4 tries")
  // When the last SMInfo answer arrived (the ActCounts' time; a replay's is the recording's),
  // nullopt when none did.
  std::optional<std::chrono::system_clock::time_point> answered_at;
  mad::EngineStats mads;
};

// No SM in `sms` when none answers, the reason in sa_problem when the SA gave nothing (the port
// knows no SM LID at all, and none is remembered: nothing else is asked).
// With `names`, each SM's NodeInfo is asked too and the map's name for its node GUID, when it has
// one, replaces the NodeDescription.
Survey survey(mad::MadLink& link, const std::vector<SmSeen>& known,
              const mad::EngineOptions& options, const NodeNameMap* names = nullptr);

}  // namespace ibpm::sm
