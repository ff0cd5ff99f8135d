// SPDX-License-Identifier: MIT
// The pages of the site, each a whole HTML document (page.hpp frames them).
//   index.html        summary of the last sweep, the health map, worst ports, busiest cables
//   locality.html     traffic locality per subtree
//   congestion.html   the congestion trees: roots, the ports waiting behind them, the jobs
//   switches.html     every switch with its utilization profile
//   nodes/0xGUID.html a node's ports: state, rates, last counters, history graphs
//   links/0xGUID-P.html a cable: both directions, its profile, its ends' errors
#pragma once

#include <cstddef>
#include <string>

#include "site_data.hpp"
#include "site_graphs.hpp"

namespace ibpm::web {

struct SiteContext {
  const SiteData& data;
  const SiteGraphs& graphs;
  std::string generated;     // for the navigation bar
  std::size_t busiest = 20;  // rows of the busiest cables table
};

std::string overview_page(const SiteContext& site, const std::string& map_svg);
std::string locality_page(const SiteContext& site);
std::string congestion_page(const SiteContext& site);
std::string switches_page(const SiteContext& site);
std::string node_page_html(const SiteContext& site, std::size_t node_index);
std::string link_page_html(const SiteContext& site, std::size_t link_index);

}  // namespace ibpm::web
