// SPDX-License-Identifier: MIT
// ibpm-utilization's output: one row per link direction, as an aligned table, CSV or JSON.
#pragma once

#include <ctime>
#include <ostream>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "history/link_usage.hpp"

namespace ibpm::analysis {

struct DirectionRow {
  const history::LinkUsage* link = nullptr;
  const history::DirectionUsage* direction = nullptr;
  std::string from;  // "leaf01[7]"
  std::string to;
};

enum class UtilizationSort { utilization, peak, wait, errors, fabric };
UtilizationSort parse_utilization_sort(const std::string& text);

// Measured directions only, sorted (fabric order keeps Fabric::links() order).
std::vector<DirectionRow> direction_rows(const Fabric& fabric,
                                         const std::vector<history::LinkUsage>& usage,
                                         const NodeNameMap* names, UtilizationSort order);

// coverage: how much of the window has history (history::describe_coverage), said with it.
// unreadable: the store failed and no history was read (the coverage says why), so the table
// never says there is no history "yet".
void print_utilization_table(std::ostream& out, const std::vector<DirectionRow>& rows,
                             std::time_t window_seconds, const std::string& coverage = {},
                             bool unreadable = false);
void print_utilization_csv(std::ostream& out, const std::vector<DirectionRow>& rows);
void print_utilization_json(std::ostream& out, const std::vector<DirectionRow>& rows,
                            std::time_t start, std::time_t end, const std::string& coverage = {});

}  // namespace ibpm::analysis
