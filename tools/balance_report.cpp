// SPDX-License-Identifier: MIT

#include "balance_report.hpp"

#include <algorithm>
#include <iomanip>
#include <optional>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/text.hpp"

namespace ibpm {

namespace {

std::string loads(const routes::SwitchBalance& row) {
  std::string text;
  for (const routes::UpPortLoad& up : row.up_ports)
    text +=
        (text.empty() ? "" : " ") + std::to_string(up.port) + ":" + std::to_string(up.destinations);
  return text;
}

std::string describe(const RouteNames& names, const routes::SwitchBalance& row) {
  return names.node(row.node) + ": " + std::to_string(row.up_ports.size()) + " up-ports carry " +
         std::to_string(row.fewest) + ".." + std::to_string(row.most) + " destinations (spread " +
         std::to_string(row.spread()) + "; port:destinations " + loads(row) + ")";
}

}  // namespace

void print_balance(std::ostream& out, const RouteNames& names, const levels::FabricLevels& levels,
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
            << r.fewest << std::setw(8) << r.most << loads(r) << '\n';
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

plugin::Check balance_check(const RouteNames& names, const std::vector<routes::SwitchBalance>& rows,
                            const plugin::Thresholds& thresholds, std::size_t listed) {
  plugin::Check check;
  std::size_t alerting = 0;
  for (const routes::SwitchBalance& row : rows) {
    const plugin::State state = thresholds.evaluate(static_cast<double>(row.spread()));
    if (state == plugin::State::ok) continue;
    ++alerting;
    if (listed == 0 || check.subchecks.size() < listed)
      check.subchecks.push_back({state, describe(names, row), {}, {}});
  }
  // The rest in one line that carries their worst state (the rows are worst first, so the
  // first one left out is).
  if (listed && alerting > listed) {
    std::size_t skipped = 0;
    std::optional<plugin::State> worst_left;
    for (const routes::SwitchBalance& row : rows) {
      const plugin::State state = thresholds.evaluate(static_cast<double>(row.spread()));
      if (state == plugin::State::ok) continue;
      if (++skipped <= listed) continue;
      if (!worst_left) worst_left = state;
    }
    check.subchecks.push_back(
        {worst_left,
         "and " + std::to_string(alerting - listed) + " more switches (--top 0 lists them all)",
         {},
         {}});
  }
  const std::size_t worst = rows.empty() ? 0 : rows.front().spread();
  if (rows.empty())
    check.summary = "no switch with two or more up-ports in the forwarding tables";
  else if (alerting == 0)
    check.summary = "up-ports balanced on " + std::to_string(rows.size()) +
                    " switches, worst spread " + std::to_string(worst) + " destinations (" +
                    names.node(rows.front().node) + ")";
  else
    check.summary = std::to_string(alerting) + " of " + std::to_string(rows.size()) +
                    " switches spread destinations unevenly over their up-ports, worst " +
                    std::to_string(worst) + " (" + names.node(rows.front().node) + ")";
  check.perfdata.push_back({"worst_spread", static_cast<double>(worst), "", thresholds.warning,
                            thresholds.critical, 0.0, std::nullopt});
  check.perfdata.push_back({"unbalanced_switches", static_cast<double>(alerting), "", std::nullopt,
                            std::nullopt, 0.0, static_cast<double>(rows.size())});
  check.perfdata.push_back({"switches", static_cast<double>(rows.size()), "", std::nullopt,
                            std::nullopt, 0.0, std::nullopt});
  return check;
}

}  // namespace ibpm
