// SPDX-License-Identifier: MIT
// Pieces several pages share: cells for rates and shares, links to node and cable pages, graph
// figures. `depth` is the linking page's depth (page.hpp).
#pragma once

#include <optional>
#include <string>

#include "html.hpp"
#include "site_data.hpp"

namespace ibpm::web {

Cell percent_cell(std::optional<double> fraction);  // 0..1 shown as "42.0 %"
Cell rate_cell(std::optional<double> octets_s);     // "12.3 MB/s"
Cell per_second_cell(double value);                 // error rates: "0.25/s", "0" when none
Cell ratio_cell(std::optional<double> value);       // locality: "0.84"

// <a href="nodes/0x...html">name</a>
std::string node_link(const SiteData& data, std::size_t node_index, int depth);
// <a href="nodes/0x...html">leaf01</a>[3], or the escaped port name when the node is unknown.
std::string port_link(const SiteData& data, PortRef port, int depth);
// <a href="links/0x...html">cable</a> for the cable at a port, empty when it has none.
std::string cable_link(const SiteData& data, PortRef port, int depth, const std::string& text);

// <figure><img class="graph" ...><figcaption>caption_html</figcaption></figure>
std::string figure(const std::string& image, const std::string& alt,
                   const std::string& caption_html, int depth);

}  // namespace ibpm::web
