// SPDX-License-Identifier: MIT
// Utilization profiles: a link's utilization over time in both directions (per cent of its
// capacity), drawn by librrd's graphing straight from the ports' RRD files.
#pragma once

#include <ctime>
#include <string>

#include "fabric/fabric.hpp"
#include "history/link_usage.hpp"

namespace ibpm::graphs {

struct ProfileGraph {
  std::string output;  // .png, .svg or .pdf (by extension)
  std::string title;   // an argument of its own (never parsed by librrd); made valid UTF-8
  std::time_t start = 0;
  std::time_t end = 0;
  int width = 640;
  int height = 160;
};

// Throws std::runtime_error with librrd's reason. Directions without a file on their sending
// side are drawn from the receiving side's RcvData, like link_usage does.
void draw_utilization(const history::HistoryReader& reader, const history::LinkUsage& usage,
                      const std::string& a_name, const std::string& b_name,
                      const ProfileGraph& graph);

}  // namespace ibpm::graphs
