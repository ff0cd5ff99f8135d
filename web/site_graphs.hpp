// SPDX-License-Identifier: MIT
// The RRD graphs of the site, drawn by librrd into graphs/: a utilization profile per cable
// (both directions), per switch (sent up and down), and the error counters of every port that
// had errors in the window. Pages show only the graphs that were drawn.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "site_data.hpp"

namespace ibpm::web {

enum class GraphScope { all, busiest, none };  // which cables get a profile

struct GraphOptions {
  GraphScope scope = GraphScope::all;
  std::size_t busiest = 20;
  std::string format = "png";  // png or svg
};

struct SiteGraphs {
  std::map<std::size_t, std::string> links;     // link index -> "graphs/link-0x..-7.png"
  std::map<std::size_t, std::string> switches;  // node index -> "graphs/switch-0x...png"
  std::map<PortRef, std::string> port_errors;   // -> "graphs/errors-0x..-7.png"
  std::size_t failed = 0;
  std::string first_failure;
};

// Draws into site_dir/graphs/. A graph librrd cannot draw is counted and left out, never fatal.
SiteGraphs draw_site_graphs(const SiteData& data, const GraphOptions& options,
                            const std::string& site_dir);

}  // namespace ibpm::web
