// SPDX-License-Identifier: MIT
// The frame of every page: head (style, sort script), the navigation bar and the footer. Pages
// live at the site's root or one folder down (nodes/, links/); every URL is relative, so the
// site works from any web server and from file://.
#pragma once

#include <string>

namespace ibpm::web {

struct PageFrame {
  std::string title;      // plain text (escaped here)
  int depth = 0;          // 0: at the root; 1: in nodes/ or links/
  std::string generated;  // "2026-11-21 10:00 UTC, counters of the last 1 h"
  std::string script;     // a root file of the site's besides sort.js, e.g. "map.js"
};

// The relative path from a page at `depth` to a root file: root_path(1, "index.html") is
// "../index.html".
std::string root_path(int depth, const std::string& file);

std::string page(const PageFrame& frame, const std::string& body_html);

}  // namespace ibpm::web
