// SPDX-License-Identifier: MIT
// Writes the whole site into a staged folder that replaces the output folder in one step.
#pragma once

#include <chrono>
#include <string>

#include "site_data.hpp"
#include "site_graphs.hpp"

namespace ibpm::web {

struct WriteOptions {
  std::string output;  // the site's folder
  GraphOptions graphs;
  std::size_t busiest = 20;   // rows of the busiest cables table
  std::string fold = "auto";  // the map's folding (ibpm-map --fold)
  // How long ibpm-draw may take to draw the map set (-t): then it is killed, and the site not
  // written.
  std::chrono::milliseconds draw_limit = std::chrono::seconds(300);
};

struct WriteReport {
  std::size_t pages = 0;
  std::size_t graphs = 0;
  std::size_t failed_graphs = 0;
};

// An existing output folder is replaced only when it is empty or holds a site written here (it
// has the .ibpm-web marker). Throws std::runtime_error with a one-line reason; the old site then
// stays as it was.
WriteReport write_site(const SiteData& data, const WriteOptions& options);

}  // namespace ibpm::web
