// SPDX-License-Identifier: MIT

#include "cable_load_report.hpp"

#include <algorithm>
#include <iomanip>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/text.hpp"
#include "routes/cable_pairs.hpp"

namespace ibpm::tools {

void print_cable_loads(std::ostream& out, const routes::RouteMap& map,
                       const route_check::RouteNames& names, ReportFormat format, std::size_t top,
                       HostCables host_cables) {
  struct Row {
    PortRef from;
    PortRef to;
    std::size_t pairs;
  };
  std::vector<Row> rows;
  for (const auto& [from, pairs] : routes::pair_counts(map)) {
    const auto to = map.fabric().remote(from);
    if (!to) continue;
    if (host_cables == HostCables::left_out && (map.endpoint_of(from) || map.endpoint_of(*to)))
      continue;
    rows.push_back({from, *to, pairs});
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.pairs > b.pairs; });
  if (top && rows.size() > top) rows.resize(top);
  switch (format) {
    case ReportFormat::table: {
      std::size_t width = 6;
      for (const Row& r : rows)
        width = std::max({width, base::one_line(names.port(r.from)).size() + 2,
                          base::one_line(names.port(r.to)).size() + 2});
      const int w = static_cast<int>(width);
      out << std::left << std::setw(w) << "from" << std::setw(w) << "to"
          << "host pairs\n";
      for (const Row& r : rows)
        out << std::setw(w) << base::one_line(names.port(r.from)) << std::setw(w)
            << base::one_line(names.port(r.to)) << r.pairs << '\n';
      return;
    }
    case ReportFormat::csv:
      out << "from,to,pairs\n";
      for (const Row& r : rows)
        out << base::csv_text(names.port(r.from)) << ',' << base::csv_text(names.port(r.to)) << ','
            << r.pairs << '\n';
      return;
    case ReportFormat::json:
      out << "{\"directions\":[";
      for (std::size_t i = 0; i < rows.size(); ++i)
        out << (i ? "," : "") << "\n{\"from\":" << base::json_string(names.port(rows[i].from))
            << ",\"to\":" << base::json_string(names.port(rows[i].to))
            << ",\"pairs\":" << rows[i].pairs << '}';
      out << "]}\n";
      return;
  }
}

}  // namespace ibpm::tools
