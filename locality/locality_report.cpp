// SPDX-License-Identifier: MIT

#include "locality/locality_report.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::locality {

namespace {

using base::format_fixed;
using base::format_rate;

std::string share_text(const std::optional<double>& share) {
  return share ? format_fixed(*share * 100, 1) + "%" : "-";
}

std::string number_or_empty(const std::optional<double>& value) {
  return value ? format_fixed(*value, 6) : "";
}

std::string json_or_null(const std::optional<double>& value) {
  return value ? base::json_number(*value) : "null";
}

std::string kind(const NodeSet& set) { return set.subtree ? "subtree" : "defined"; }

}  // namespace

SortOrder parse_sort_order(const std::string& text) {
  if (text == "level") return SortOrder::level;
  if (text == "locality") return SortOrder::locality;
  if (text == "traffic") return SortOrder::traffic;
  if (text == "name") return SortOrder::name;
  throw std::invalid_argument("unknown sort order '" + text + "'");
}

std::vector<SetTraffic> sorted(std::vector<SetTraffic> rows, SortOrder order) {
  auto by_name = [](const SetTraffic& a, const SetTraffic& b) { return a.set->name < b.set->name; };
  switch (order) {
    case SortOrder::level:
      std::stable_sort(rows.begin(), rows.end(), [&](const SetTraffic& a, const SetTraffic& b) {
        return a.set->level != b.set->level ? a.set->level > b.set->level : by_name(a, b);
      });
      break;
    case SortOrder::locality:
      std::stable_sort(rows.begin(), rows.end(), [&](const SetTraffic& a, const SetTraffic& b) {
        if (a.l.has_value() != b.l.has_value()) return a.l.has_value();
        return a.l && *a.l != *b.l ? *a.l < *b.l : by_name(a, b);
      });
      break;
    case SortOrder::traffic:
      std::stable_sort(rows.begin(), rows.end(), [&](const SetTraffic& a, const SetTraffic& b) {
        double ta = a.gen + a.con, tb = b.gen + b.con;
        return ta != tb ? ta > tb : by_name(a, b);
      });
      break;
    case SortOrder::name:
      std::stable_sort(rows.begin(), rows.end(), by_name);
      break;
  }
  return rows;
}

void print_table(std::ostream& out, const std::vector<SetTraffic>& rows,
                 const ReportContext& context) {
  // Names come from the fabric: nothing in them may move the terminal's cursor.
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(base::one_line(r.set->name));
  std::size_t width = 8;
  for (const auto& name : names) width = std::max(width, name.size());
  char line[512];
  out << "Traffic locality over " << (context.window_end - context.window_start) << " s"
      << (context.coverage.empty() ? "" : ": " + context.coverage) << '\n';
  if (!context.source.empty()) out << "Read from: " << context.source << '\n';
  if (!context.unreadable && !rows.empty() &&
      std::all_of(rows.begin(), rows.end(), [](auto& r) { return r.no_history; }))
    out << "No history in this window yet: no host port has a rate in it (a rate needs two samples "
           "at least one RRD step apart; is check_ib_fabric running, and is --window longer than "
           "its interval and the RRD step?)\n";
  std::snprintf(line, sizeof line, "%-*s %5s %6s %11s %11s %11s %11s %7s %7s %7s  %s\n",
                static_cast<int>(width), "SET", "LEVEL", "HOSTS", "GEN", "CON", "OUT", "IN",
                "L_GEN", "L_CON", "L", "NOTE");
  out << line;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    std::string note = base::one_line(r.note);
    if (r.unmeasured)
      note += std::string(note.empty() ? "" : "; ") + std::to_string(r.unmeasured) +
              " directions without history";
    std::snprintf(line, sizeof line, "%-*s %5d %6zu %11s %11s %11s %11s %7s %7s %7s  %s%s\n",
                  static_cast<int>(width), names[i].c_str(), r.set->level, r.set->hosts.size(),
                  format_rate(r.gen).c_str(), format_rate(r.con).c_str(),
                  format_rate(r.out).c_str(), format_rate(r.in).c_str(),
                  share_text(r.l_gen).c_str(), share_text(r.l_con).c_str(), share_text(r.l).c_str(),
                  r.transit ? "TRANSIT: " : "", note.c_str());
    out << line;
  }
}

void print_csv(std::ostream& out, const std::vector<SetTraffic>& rows) {
  out << "set,kind,level,hosts,gen_octets_s,con_octets_s,out_octets_s,in_octets_s,"
         "l_gen,l_con,l,border_cables,unmeasured,transit,note\n";
  for (const auto& r : rows)
    out << base::csv_text(r.set->name) << ',' << kind(*r.set) << ',' << r.set->level << ','
        << r.set->hosts.size() << ',' << format_fixed(r.gen, 3) << ',' << format_fixed(r.con, 3)
        << ',' << format_fixed(r.out, 3) << ',' << format_fixed(r.in, 3) << ','
        << number_or_empty(r.l_gen) << ',' << number_or_empty(r.l_con) << ','
        << number_or_empty(r.l) << ',' << r.border_cables << ',' << r.unmeasured << ','
        << (r.transit ? "yes" : "no") << ',' << base::csv_text(r.note) << '\n';
}

void print_json(std::ostream& out, const std::vector<SetTraffic>& rows,
                const ReportContext& context) {
  out << "{\"window\":{\"start\":" << context.window_start << ",\"end\":" << context.window_end
      << ",\"coverage\":" << base::json_string(context.coverage)
      << ",\"source\":" << base::json_string(context.source) << "},\"sets\":[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    out << (i ? "," : "") << "\n{\"name\":" << base::json_string(r.set->name) << ",\"kind\":\""
        << kind(*r.set) << "\",\"level\":" << r.set->level << ",\"hosts\":" << r.set->hosts.size()
        << ",\"gen\":" << base::json_number(r.gen) << ",\"con\":" << base::json_number(r.con)
        << ",\"out\":" << base::json_number(r.out) << ",\"in\":" << base::json_number(r.in)
        << ",\"l_gen\":" << json_or_null(r.l_gen) << ",\"l_con\":" << json_or_null(r.l_con)
        << ",\"l\":" << json_or_null(r.l) << ",\"border_cables\":" << r.border_cables
        << ",\"unmeasured\":" << r.unmeasured << ",\"transit\":" << (r.transit ? "true" : "false")
        << ",\"note\":" << base::json_string(r.note) << "}";
  }
  out << "\n]}\n";
}

}  // namespace ibpm::locality
