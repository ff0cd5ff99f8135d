// SPDX-License-Identifier: MIT

#include "site_paths.hpp"

#include <algorithm>

namespace ibpm::web {

std::string node_page(Guid node) { return "nodes/" + format_guid(node) + ".html"; }

PortRef link_key(const Link& link) { return std::min(link.a, link.b); }

std::string link_name(const Link& link) {
  const PortRef key = link_key(link);
  return format_guid(key.node) + "-" + std::to_string(key.port);
}

std::string link_page(const Link& link) { return "links/" + link_name(link) + ".html"; }

}  // namespace ibpm::web
