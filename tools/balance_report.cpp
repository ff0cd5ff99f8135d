// SPDX-License-Identifier: MIT

#include "balance_report.hpp"

#include <algorithm>
#include <iomanip>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/text.hpp"
#include "route_check/balance_check.hpp"

namespace ibpm::tools {

void print_balance(std::ostream& out, const route_check::RouteNames& names,
                   const levels::FabricLevels& levels,
                   const std::vector<routes::SwitchBalance>& rows, ReportFormat format,
                   std::size_t top) {
  const std::size_t shown = top && rows.size() > top ? top : rows.size();
  switch (format) {
    case ReportFormat::table: {
      out << rows.size() << " switches with two or more up-ports; worst spread "
          << (rows.empty() ? 0 : rows.front().spread()) << " destinations\n";
      std::size_t width = 8;
      for (std::size_t i = 0; i < shown; ++i)
        width = std::max(width, base::one_line(names.node(rows[i].node)).size() + 2);
      out << std::left << std::setw(static_cast<int>(width)) << "switch" << std::setw(8) << "level"
          << std::setw(8) << "spread" << std::setw(8) << "fewest" << std::setw(8) << "most"
          << "up-port:destinations\n";
      for (std::size_t i = 0; i < shown; ++i) {
        const routes::SwitchBalance& r = rows[i];
        out << std::setw(static_cast<int>(width)) << base::one_line(names.node(r.node))
            << std::setw(8) << levels.name(r.level) << std::setw(8) << r.spread() << std::setw(8)
            << r.fewest << std::setw(8) << r.most << route_check::up_port_loads(r) << '\n';
      }
      return;
    }
    case ReportFormat::csv:
      out << "switch,guid,level,spread,fewest,most,port,peer,destinations\n";
      for (std::size_t i = 0; i < shown; ++i) {
        const routes::SwitchBalance& r = rows[i];
        for (const routes::UpPortLoad& up : r.up_ports)
          out << base::csv_text(names.node(r.node)) << ',' << format_guid(r.node) << ','
              << levels.name(r.level) << ',' << r.spread() << ',' << r.fewest << ',' << r.most
              << ',' << unsigned{up.port} << ',' << base::csv_text(names.port(up.peer)) << ','
              << up.destinations << '\n';
      }
      return;
    case ReportFormat::json:
      out << "{\"switches\":[";
      for (std::size_t i = 0; i < shown; ++i) {
        const routes::SwitchBalance& r = rows[i];
        out << (i ? "," : "") << "\n{\"switch\":" << base::json_string(names.node(r.node))
            << ",\"guid\":\"" << format_guid(r.node)
            << "\",\"level\":" << base::json_string(levels.name(r.level))
            << ",\"spread\":" << r.spread() << ",\"fewest\":" << r.fewest << ",\"most\":" << r.most
            << ",\"up_ports\":[";
        for (std::size_t p = 0; p < r.up_ports.size(); ++p)
          out << (p ? "," : "") << "{\"port\":" << unsigned{r.up_ports[p].port}
              << ",\"peer\":" << base::json_string(names.port(r.up_ports[p].peer))
              << ",\"destinations\":" << r.up_ports[p].destinations << '}';
        out << "]}";
      }
      out << "]}\n";
      return;
  }
}

}  // namespace ibpm::tools
