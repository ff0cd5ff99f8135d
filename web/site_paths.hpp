// SPDX-License-Identifier: MIT
// Where things are in the site, relative to its root. The names are the ones ibpm-map puts in
// the map's URLs: nodes/0xGUID.html, links/0xGUID-PORT.html named by the cable's lower end
// (smaller GUID, then port), so the map's links lead to these pages.
#pragma once

#include <string>

#include "fabric/fabric.hpp"

namespace ibpm::web {

std::string node_page(Guid node);         // "nodes/0x0002c90300a1b2c3.html"
PortRef link_key(const Link& link);       // the cable's lower end
std::string link_name(const Link& link);  // "0x0002c90300a1b2c3-7"
std::string link_page(const Link& link);  // "links/0x0002c90300a1b2c3-7.html"

}  // namespace ibpm::web
