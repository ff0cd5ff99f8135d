// SPDX-License-Identifier: MIT
// ibpm-locality's output: one row per node set, as an aligned table, CSV or JSON.
#pragma once

#include <ctime>
#include <ostream>
#include <string>
#include <vector>

#include "locality/traffic_locality.hpp"

namespace ibpm::locality {

enum class SortOrder { level, locality, traffic, name };
SortOrder parse_sort_order(const std::string& text);  // throws std::invalid_argument

// Sorted copy: level (top down, then name), locality (least local first, sets without traffic
// last), traffic (gen + con, busiest first), name.
std::vector<SetTraffic> sorted(std::vector<SetTraffic> rows, SortOrder order);

struct ReportContext {
  std::time_t window_start = 0;
  std::time_t window_end = 0;
  std::string coverage;     // how much of the window has history (history::describe_coverage)
  bool unreadable = false;  // the store failed and no history was read: not "none yet"
  std::string source;       // where the sums came from (FabricAnalysis::history_source)
};

void print_table(std::ostream& out, const std::vector<SetTraffic>& rows,
                 const ReportContext& context);
void print_csv(std::ostream& out, const std::vector<SetTraffic>& rows);
void print_json(std::ostream& out, const std::vector<SetTraffic>& rows,
                const ReportContext& context);

}  // namespace ibpm::locality
