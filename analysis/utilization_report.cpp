// SPDX-License-Identifier: MIT

#include "analysis/utilization_report.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::analysis {

namespace {

double value(const std::optional<double>& v) { return v.value_or(-1); }

std::string percent(const std::optional<double>& share) {
  return share ? base::format_fixed(*share * 100, 1) + "%" : "-";
}

std::string number(double v) { return base::format_fixed(v, 6); }

std::string optional_number(const std::optional<double>& v) { return v ? number(*v) : ""; }
std::string json_optional(const std::optional<double>& v) {
  return v ? base::json_number(*v) : "null";
}

}  // namespace

UtilizationSort parse_utilization_sort(const std::string& text) {
  if (text == "utilization") return UtilizationSort::utilization;
  if (text == "peak") return UtilizationSort::peak;
  if (text == "wait") return UtilizationSort::wait;
  if (text == "errors") return UtilizationSort::errors;
  if (text == "fabric") return UtilizationSort::fabric;
  throw std::invalid_argument("unknown sort order '" + text + "'");
}

std::vector<DirectionRow> direction_rows(const Fabric& fabric,
                                         const std::vector<history::LinkUsage>& usage,
                                         const NodeNameMap* names, UtilizationSort order) {
  std::vector<DirectionRow> rows;
  for (const auto& link : usage)
    for (const auto* d : {&link.a_to_b, &link.b_to_a})
      if (d->measured)
        rows.push_back(
            {&link, d, port_name(fabric, d->from, names), port_name(fabric, d->to, names)});
  auto key = [order](const DirectionRow& r) {
    switch (order) {
      case UtilizationSort::utilization:
        return value(r.direction->average_util);
      case UtilizationSort::peak:
        return value(r.direction->peak_util);
      case UtilizationSort::wait:
        return value(r.direction->xmit_wait_pct);
      case UtilizationSort::errors:
        return r.link->errors_s;
      case UtilizationSort::fabric:
        break;
    }
    return 0.0;
  };
  if (order != UtilizationSort::fabric)
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const DirectionRow& a, const DirectionRow& b) { return key(a) > key(b); });
  return rows;
}

void print_utilization_table(std::ostream& out, const std::vector<DirectionRow>& rows,
                             std::time_t window_seconds, const std::string& coverage,
                             bool unreadable) {
  std::size_t width = 4;
  // Names come from the fabric: nothing in them may move the terminal's cursor.
  auto safe = [](const std::string& name) { return base::one_line(name); };
  for (const auto& r : rows) width = std::max({width, safe(r.from).size(), safe(r.to).size()});
  const int w = static_cast<int>(width);
  char line[512];
  out << "Link utilization over " << window_seconds << " s"
      << (coverage.empty() ? "" : ": " + coverage) << '\n';
  if (rows.empty() && !unreadable)
    out << "No history in this window yet: no cable direction has a rate in it (a rate needs two "
           "samples at least one RRD step apart; is check_ib_fabric running, and is --window "
           "longer than its interval and the RRD step?)\n";
  std::snprintf(line, sizeof line, "%-*s    %-*s %11s %7s %7s %7s %10s\n", w, "FROM", w, "TO",
                "AVERAGE", "UTIL", "PEAK", "WAIT", "ERRORS/S");
  out << line;
  for (const auto& r : rows) {
    const auto& d = *r.direction;
    std::snprintf(line, sizeof line, "%-*s -> %-*s %11s %7s %7s %6s%% %10.3g\n", w,
                  safe(r.from).c_str(), w, safe(r.to).c_str(),
                  base::format_rate(d.average_octets_s).c_str(), percent(d.average_util).c_str(),
                  percent(d.peak_util).c_str(),
                  d.xmit_wait_pct ? base::format_short(*d.xmit_wait_pct).c_str() : "-", d.errors_s);
    out << line;
  }
}

void print_utilization_csv(std::ostream& out, const std::vector<DirectionRow>& rows) {
  out << "from,to,from_guid,from_port,to_guid,to_port,capacity_octets_s,average_octets_s,"
         "peak_octets_s,average_util,peak_util,xmit_wait_pct,errors_s\n";
  for (const auto& r : rows) {
    const auto& d = *r.direction;
    char guids[64];
    std::snprintf(guids, sizeof guids, "0x%016llx,%u,0x%016llx,%u",
                  static_cast<unsigned long long>(d.from.node), unsigned{d.from.port},
                  static_cast<unsigned long long>(d.to.node), unsigned{d.to.port});
    out << base::csv_text(r.from) << ',' << base::csv_text(r.to) << ',' << guids << ','
        << optional_number(r.link->capacity_octets_s) << ',' << number(d.average_octets_s) << ','
        << number(d.peak_octets_s) << ',' << optional_number(d.average_util) << ','
        << optional_number(d.peak_util) << ',' << optional_number(d.xmit_wait_pct) << ','
        << number(d.errors_s) << '\n';
  }
}

void print_utilization_json(std::ostream& out, const std::vector<DirectionRow>& rows,
                            std::time_t start, std::time_t end, const std::string& coverage) {
  out << "{\"window\":{\"start\":" << start << ",\"end\":" << end
      << ",\"coverage\":" << base::json_string(coverage) << "},\"directions\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const auto& d = *r.direction;
    out << (i ? "," : "") << "\n{\"from\":" << base::json_string(r.from)
        << ",\"to\":" << base::json_string(r.to)
        << ",\"capacity_octets_s\":" << json_optional(r.link->capacity_octets_s)
        << ",\"average_octets_s\":" << base::json_number(d.average_octets_s)
        << ",\"peak_octets_s\":" << base::json_number(d.peak_octets_s)
        << ",\"average_util\":" << json_optional(d.average_util)
        << ",\"peak_util\":" << json_optional(d.peak_util)
        << ",\"xmit_wait_pct\":" << json_optional(d.xmit_wait_pct)
        << ",\"errors_s\":" << base::json_number(d.errors_s) << "}";
  }
  out << "\n]}\n";
}

}  // namespace ibpm::analysis
