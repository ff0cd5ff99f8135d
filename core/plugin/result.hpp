// SPDX-License-Identifier: MIT
// The result of one check run: a summary, a tree of subchecks and performance data.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plugin/perfdata.hpp"
#include "plugin/state.hpp"

namespace ibpm::plugin {

struct Subcheck {
  // Unset: the worst state of the children (OK without children). Set: exactly this
  // state, even if a child is worse (e.g. a redundant link down is only a WARNING).
  std::optional<State> state;
  std::string output;  // one line; may hold untrusted text, renderers sanitise it
  std::vector<Subcheck> children;
  std::vector<Perfdata> perfdata;
};

struct Check {
  std::optional<State> state;  // unset: the worst state of the subchecks (OK without any)
  std::string summary;         // empty: generated from the subchecks' states
  std::vector<Subcheck> subchecks;
  std::vector<Perfdata> perfdata;  // check-wide items; subchecks carry their own
};

// States combine by worst() (CRITICAL > WARNING > UNKNOWN > OK, see state.hpp).
State effective_state(const Subcheck& subcheck);
State effective_state(const Check& check);

// check.summary, or counts of the top-level subchecks by state, most severe first
// ("1 critical, 3 ok"), or "no checks" when there are none.
std::string effective_summary(const Check& check);

// All perfdata of the check: its own items, then the subchecks' depth-first.
std::vector<Perfdata> collect_perfdata(const Check& check);

// A check that only says UNKNOWN with this summary (errors, timeouts).
Check unknown_check(std::string summary);

}  // namespace ibpm::plugin
