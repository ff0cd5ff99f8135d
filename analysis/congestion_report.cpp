// SPDX-License-Identifier: MIT

#include "analysis/congestion_report.hpp"

#include <algorithm>
#include <cstdio>

#include "base/csv.hpp"
#include "base/json.hpp"
#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::analysis {

const char* const kNoXmitWaitHistory = "no XmitWait history in this window";

namespace {

std::string port_label(const CongestionContext& c, const PortRef& port) {
  return port_name(c.fabric, port, c.names);
}

// Where the direction goes: "spine01[4]", empty for a port without cable.
std::string peer_label(const CongestionContext& c, const PortRef& port) {
  const auto peer = c.fabric.remote(port);
  return peer ? port_label(c, *peer) : std::string{};
}

std::string node_label(const CongestionContext& c, const PortRef& port) {
  return display_name(c.fabric.node(port.node), c.names);
}

std::string share_text(std::optional<double> share) {
  return share ? base::format_fixed(*share * 100, 1) + "%" : "-";
}

// A port's lost share; ">=" where its PortXmitWait sat at its maximum (the share a lower bound).
std::string lost_text(const CongestedPort& p) {
  return (p.wait_saturated ? ">=" : "") + share_text(p.lost_share);
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : " ") + word;
  return out.empty() ? "-" : out;
}

std::string csv_optional(std::optional<double> v) { return v ? base::format_fixed(*v, 6) : ""; }

std::string json_optional(std::optional<double> v) { return v ? base::json_number(*v) : "null"; }

std::string json_strings(const std::vector<std::string>& words) {
  std::string out = "[";
  for (std::size_t i = 0; i < words.size(); ++i)
    out += (i ? "," : "") + base::json_string(words[i]);
  return out + "]";
}

// "node", "guid", "port", "to", "role", "lost_share", "utilization" of one port.
std::string json_port_fields(const CongestionContext& c, const CongestedPort& p) {
  return "\"node\":" + base::json_string(node_label(c, p.port)) + ",\"guid\":\"" +
         format_guid(p.port.node) + "\",\"port\":" + std::to_string(p.port.port) +
         ",\"to\":" + base::json_string(peer_label(c, p.port)) + ",\"role\":\"" +
         to_string(p.role) + "\",\"lost_share\":" + base::json_number(p.lost_share) +
         ",\"wait_saturated\":" + (p.wait_saturated ? "true" : "false") +
         ",\"utilization\":" + json_optional(p.utilization);
}

}  // namespace

void print_congestion_table(std::ostream& out, const CongestionReport& report,
                            const CongestionContext& context) {
  // Names come from the fabric: nothing in them may move the terminal's cursor.
  auto safe = [&](const PortRef& port) {
    return base::one_line(port_label(context, port) + " -> " + peer_label(context, port));
  };
  std::size_t width = 10;
  for (const CongestedPort& p : report.ports) width = std::max(width, safe(p.port).size());
  const int w = static_cast<int>(width);
  out << "Congestion over " << context.end - context.start << " s"
      << (context.coverage.empty() ? "" : ": " + context.coverage) << '\n'
      << "A port waits above " << share_text(context.thresholds.wait) << " XmitWait, is full at "
      << share_text(context.thresholds.busy) << " utilization, in the same rows of the history\n";
  if (report.trees.empty()) {
    out << "No congestion: no port waited for credits above the threshold\n";
    return;
  }
  char line[512];
  std::snprintf(line, sizeof line, "\n%-6s %-*s %7s %7s\n", "ROLE", w, "PORT", "WAIT", "UTIL");
  out << line;
  auto row = [&](const char* role, const CongestedPort& p) {
    std::snprintf(line, sizeof line, "%-6s %-*s %7s %7s\n", role, w, safe(p.port).c_str(),
                  lost_text(p).c_str(), share_text(p.utilization).c_str());
    out << line;
  };
  for (const CongestionTree& tree : report.trees) {
    row("root", report.ports[tree.root]);
    if (context.jobs) {
      out << "         cause:  " << base::one_line(joined(tree.cause_jobs)) << '\n';
      out << "         suffer: " << base::one_line(joined(tree.suffer_jobs)) << '\n';
    }
    for (std::size_t victim : tree.victims) row("  ", report.ports[victim]);
  }
}

void print_congestion_csv(std::ostream& out, const CongestionReport& report,
                          const CongestionContext& context) {
  out << "tree,role,node,guid,port,from,to,lost_share,utilization,root,cause_jobs,suffer_jobs,"
         "wait_saturated\n";
  for (std::size_t t = 0; t < report.trees.size(); ++t) {
    const CongestionTree& tree = report.trees[t];
    const std::string root = port_label(context, report.ports[tree.root].port);
    auto row = [&](const CongestedPort& p, bool jobs) {
      out << t + 1 << ',' << to_string(p.role) << ',' << base::csv_text(node_label(context, p.port))
          << ',' << format_guid(p.port.node) << ',' << unsigned{p.port.port} << ','
          << base::csv_text(port_label(context, p.port)) << ','
          << base::csv_text(peer_label(context, p.port)) << ','
          << base::format_fixed(p.lost_share, 6) << ',' << csv_optional(p.utilization) << ','
          << base::csv_text(root) << ','
          << (jobs ? base::csv_text(joined(tree.cause_jobs)) : std::string{}) << ','
          << (jobs ? base::csv_text(joined(tree.suffer_jobs)) : std::string{}) << ','
          << (p.wait_saturated ? 1 : 0) << '\n';
    };
    row(report.ports[tree.root], context.jobs);
    for (std::size_t victim : tree.victims) row(report.ports[victim], false);
  }
}

void print_congestion_json(std::ostream& out, const CongestionReport& report,
                           const CongestionContext& context, const std::string& note) {
  out << "{\"window\":{\"start\":" << context.start << ",\"end\":" << context.end
      << ",\"coverage\":" << base::json_string(context.coverage)
      << "},\"thresholds\":{\"wait\":" << base::json_number(context.thresholds.wait)
      << ",\"busy\":" << base::json_number(context.thresholds.busy) << '}';
  if (!note.empty()) out << ",\"note\":" << base::json_string(note);
  out << ",\"ports\":[";
  for (std::size_t i = 0; i < report.ports.size(); ++i) {
    const CongestedPort& p = report.ports[i];
    std::vector<std::string> roots;
    for (std::size_t t : p.trees)
      roots.push_back(port_label(context, report.ports[report.trees[t].root].port));
    out << (i ? "," : "") << "\n{" << json_port_fields(context, p)
        << ",\"roots\":" << json_strings(roots) << '}';
  }
  out << "\n],\"trees\":[";
  for (std::size_t t = 0; t < report.trees.size(); ++t) {
    const CongestionTree& tree = report.trees[t];
    out << (t ? "," : "") << "\n{\"root\":{" << json_port_fields(context, report.ports[tree.root])
        << "},\"victims\":[";
    for (std::size_t v = 0; v < tree.victims.size(); ++v)
      out << (v ? "," : "") << '{' << json_port_fields(context, report.ports[tree.victims[v]])
          << '}';
    out << "],\"cause_jobs\":" << json_strings(tree.cause_jobs)
        << ",\"suffer_jobs\":" << json_strings(tree.suffer_jobs) << '}';
  }
  out << "\n]}\n";
}

}  // namespace ibpm::analysis
