// SPDX-License-Identifier: MIT
// Reading every switch's linear forwarding table over the fabric in one engine run: each
// switch's NodeInfo (is the expected switch answering at its LID?) and SwitchInfo (its
// LinearFDBTop) go out together; as soon as SwitchInfo answers, that switch's LFT blocks
// 0..LinearFDBTop/64 join the same run, so all switches are read in parallel within the window.
#pragma once

#include <string>
#include <vector>

#include "mad/mad_engine.hpp"
#include "routes/forwarding_tables.hpp"

namespace ibpm::route_check {

struct SwitchAddress {
  Guid node = 0;
  unsigned lid = 0;
  std::string name;  // for problems ("leaf01")
};

struct LftRead {
  routes::ForwardingTables tables;    // the switches read completely; read_at left to the caller
  std::vector<std::string> problems;  // one line per switch not read, with the reason
  std::size_t queries = 0;            // MADs asked (tries not counted)
};

LftRead read_forwarding_tables(mad::MadEngine& engine, const std::vector<SwitchAddress>& switches,
                               const mad::EngineOptions& options);

}  // namespace ibpm::route_check
