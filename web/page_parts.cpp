// SPDX-License-Identifier: MIT

#include "page_parts.hpp"

#include "base/number.hpp"
#include "page.hpp"
#include "site_paths.hpp"

namespace ibpm::web {

Cell percent_cell(std::optional<double> fraction) {
  if (!fraction) return number_cell(std::nullopt, "-");
  return number_cell(*fraction * 100, base::format_fixed(*fraction * 100, 1) + " %");
}

Cell rate_cell(std::optional<double> octets_s) {
  if (!octets_s) return number_cell(std::nullopt, "-");
  return number_cell(*octets_s, escape(base::format_rate(*octets_s)));
}

Cell per_second_cell(double value) {
  if (value <= 0) return number_cell(0, "0");
  return number_cell(value, escape(base::format_short(value)) + "/s");
}

Cell ratio_cell(std::optional<double> value) {
  if (!value) return number_cell(std::nullopt, "-");
  return number_cell(*value, base::format_fixed(*value, 2));
}

std::string node_link(const SiteData& data, std::size_t node_index, int depth) {
  const Node& node = data.fabric().nodes()[node_index];
  return link(root_path(depth, node_page(node.guid)), data.name(node_index));
}

std::string port_link(const SiteData& data, PortRef port, int depth) {
  const Node* node = data.fabric().find(port.node);
  if (!node) return escape(data.port_name(port));
  return node_link(data, data.fabric().index_of(port.node), depth) + "[" +
         std::to_string(port.port) + "]";
}

std::string cable_link(const SiteData& data, PortRef port, int depth, const std::string& text) {
  const Port* p = data.fabric().find_port(port);
  if (!p || !p->link) return {};
  return link(root_path(depth, link_page(data.fabric().links()[*p->link])), text);
}

std::string figure(const std::string& image, const std::string& alt,
                   const std::string& caption_html, int depth) {
  return "<figure><img class=\"graph\" src=\"" + escape(root_path(depth, image)) + "\" alt=\"" +
         escape(alt) + "\"><figcaption>" + caption_html + "</figcaption></figure>\n";
}

}  // namespace ibpm::web
