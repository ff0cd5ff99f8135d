// SPDX-License-Identifier: MIT
// index.html: what an operator looks at first.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <set>

#include "base/number.hpp"
#include "busiest.hpp"
#include "page.hpp"
#include "page_parts.hpp"
#include "pages.hpp"
#include "site_paths.hpp"

namespace ibpm::web {

namespace {

std::string card(const std::string& label, const std::string& value, const std::string& css = {},
                 const std::string& title = {}) {
  return "<div class=\"card" + (css.empty() ? "" : " " + css) + "\"" +
         (title.empty() ? "" : " title=\"" + escape(title) + "\"") + "><div class=\"value\">" +
         escape(value) + "</div><div class=\"label\">" + escape(label) + "</div></div>";
}

std::string count_css(long count, const char* bad) { return count > 0 ? bad : "ok"; }

std::string age(double seconds) {
  if (seconds < 1) return "just now";  // a sweep that ended within the second of this run
  if (seconds < 120) return base::format_fixed(seconds, 0) + " s ago";
  if (seconds < 7200) return base::format_fixed(seconds / 60, 0) + " min ago";
  return base::format_fixed(seconds / 3600, 1) + " h ago";
}

// "1 port", "2 ports", "0 ports".
std::string counted(long count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string summary_section(const SiteContext& site) {
  const SiteData& data = site.data;
  const Fabric& fabric = data.fabric();
  std::string html = "<h2>Fabric</h2>\n<section id=\"summary\">\n";
  html += card("switches", std::to_string(fabric.count(NodeType::sw)));
  html += card("channel adapters", std::to_string(fabric.count(NodeType::ca)));
  html += card("cables", std::to_string(fabric.links().size()));
  if (const auto& sweep = data.sweep) {
    html += card("last sweep", age(static_cast<double>(data.generated) - sweep->started), "",
                 "took " + base::format_fixed(sweep->duration, 2) + " s");
    html +=
        card("ports polled", std::to_string(sweep->polled) + " / " + std::to_string(sweep->ports));
    html += card("ports in error", std::to_string(sweep->in_error),
                 count_css(sweep->in_error, "critical"));
    html += card("ports saturated", std::to_string(sweep->saturated),
                 count_css(sweep->saturated, "warning"));
    html +=
        card("unreachable",
             counted(sweep->unreachable, "port") + ", " + counted(sweep->unreachable_nodes, "node"),
             count_css(sweep->unreachable, "warning"));
    html += card("sent, all ports", base::format_rate(sweep->xmit_octets_s));
  } else {
    html += card("last sweep", data.sweep_error ? "unreadable" : "none", "warning",
                 data.sweep_error.value_or("no check_ib_fabric summary in the state directory"));
  }
  const std::size_t degraded = data.diff.count(topology::ChangeKind::link_degraded);
  const std::size_t changes = data.diff.changes.size() - degraded;
  if (data.has_baseline)
    html += card("topology changes", std::to_string(changes), changes > 0 ? "critical" : "ok",
                 "against the baseline");
  else
    html += card("topology changes", "no baseline", "", "ibpm-web --baseline FILE compares");
  html += card("degraded links", std::to_string(degraded), degraded > 0 ? "warning" : "ok");
  html += "</section>\n";
  if (!data.diff.changes.empty()) {
    html += "<h2>Topology</h2>\n<ul id=\"topology-changes\">\n";
    for (const topology::TopologyChange& change : data.diff.changes)
      html += "<li>" + escape(change.text) + "</li>\n";  // the text names its kind
    html += "</ul>\n";
  }
  for (const std::string& warning : data.warnings)
    html += "<p class=\"note\">" + escape(warning) + "</p>\n";
  if (site.graphs.failed > 0)
    html += "<p class=\"note\">" + std::to_string(site.graphs.failed) +
            " graphs could not be drawn, the first: " + escape(site.graphs.first_failure) +
            "</p>\n";
  return html;
}

int state_rank(const std::string& state) {
  if (state == "CRITICAL") return 3;
  if (state == "UNKNOWN") return 2;
  if (state == "WARNING") return 1;
  return 0;
}

// Ports the last sweep found not OK, and ports with errors in the window; worst first.
std::string worst_ports_section(const SiteContext& site) {
  const SiteData& data = site.data;
  struct Row {
    PortRef port;
    std::string name, remote, state, reason;
    std::optional<double> errors;
  };
  std::vector<Row> rows;
  std::set<PortRef> listed;
  if (data.sweep)
    for (const products::PortNotOk& p : data.sweep->ports_not_ok) {
      const PortRef ref{p.node, static_cast<PortNumber>(p.port)};
      const PortState* state = data.port(ref);
      rows.push_back(
          {ref, p.name, p.remote, p.state, p.reason,
           state ? std::optional<double>(history::error_rate(state->history)) : std::nullopt});
      listed.insert(ref);
    }
  for (const auto& [ref, state] : data.ports) {
    const double errors = history::error_rate(state.history);
    if (errors <= 0 || listed.count(ref)) continue;
    const auto remote = data.fabric().remote(ref);
    rows.push_back({ref, data.port_name(ref), remote ? data.port_name(*remote) : "", "OK",
                    "errors in the window, none in the last sweep", errors});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (state_rank(a.state) != state_rank(b.state))
      return state_rank(a.state) > state_rank(b.state);
    return a.errors.value_or(0) > b.errors.value_or(0);
  });
  Table table{
      "worst-ports", {"State", "Port", "Remote", "Reason", "Errors (window)", "Cable"}, {}, {}};
  table.empty_note = data.sweep
                         ? "Every port was OK in the last sweep and had no errors in the window."
                         : "No sweep summary: run check_ib_fabric with this --state-dir.";
  for (const Row& r : rows) {
    const bool known = data.fabric().find(r.port.node) != nullptr;
    const auto remote = data.fabric().remote(r.port);
    table.rows.push_back({state_cell(r.state),
                          {known ? port_link(data, r.port, 0) : escape(r.name), {}, false, {}},
                          {remote ? port_link(data, *remote, 0) : escape(r.remote), {}, false, {}},
                          text_cell(r.reason),
                          r.errors ? per_second_cell(*r.errors) : number_cell(std::nullopt, "-"),
                          {cable_link(data, r.port, 0, "cable"), {}, false, {}}});
  }
  return "<h2>Worst ports</h2>\n" + render(table);
}

std::string busiest_section(const SiteContext& site) {
  const SiteData& data = site.data;
  Table table{"busiest-links",
              {"From", "To", "Utilization", "Peak", "Rate", "XmitWait", "Errors", "Cable"},
              {},
              {}};
  table.empty_note = "No cable has data in the window.";
  for (const BusyDirection& busy : busiest_directions(data.usage, site.busiest)) {
    const history::DirectionUsage& d = *busy.direction;
    table.rows.push_back(
        {{port_link(data, d.from, 0), {}, false, {}},
         {port_link(data, d.to, 0), {}, false, {}},
         percent_cell(d.average_util),
         percent_cell(d.peak_util),
         rate_cell(d.average_octets_s),
         d.xmit_wait_pct
             ? number_cell(*d.xmit_wait_pct, base::format_fixed(*d.xmit_wait_pct, 1) + " %")
             : number_cell(std::nullopt, "-"),
         per_second_cell(d.errors_s),
         {link(link_page(data.fabric().links()[busy.link]), "cable"), {}, false, {}}});
  }
  std::string html =
      "<h2>Busiest cables</h2>\n<p class=\"note\">Average over the window, per direction.</p>\n" +
      render(table) + "<div class=\"graphs\">\n";
  for (std::size_t l : busiest_links(data.usage, std::min<std::size_t>(site.busiest, 8))) {
    auto graph = site.graphs.links.find(l);
    if (graph == site.graphs.links.end()) continue;
    const Link& cable = data.fabric().links()[l];
    html += figure(
        graph->second, "utilization of " + data.port_name(cable.a),
        link(link_page(cable), data.port_name(cable.a) + " - " + data.port_name(cable.b)), 0);
  }
  return html + "</div>\n";
}

// The subnet managers as check_ib_sm last saw them: the master first.
std::string sm_section(const SiteContext& site) {
  const SiteData& data = site.data;
  std::string html = "<h2>Subnet managers</h2>\n";
  if (data.sms_error) return html + "<p class=\"note\">" + escape(*data.sms_error) + "</p>\n";
  if (!data.sms)
    return html + "<p class=\"note\">No check_ib_sm state in the state directory.</p>\n";
  const sm::Remembered& r = *data.sms;
  const double seen = std::chrono::duration<double>(r.sampled.time_since_epoch()).count();
  html += "<p class=\"note\">";
  html += r.master ? "Master: " + escape(sm::describe(*r.master)) + ". " : "No master. ";
  html += "As check_ib_sm saw them " + escape(age(static_cast<double>(data.generated) - seen)) +
          ".</p>\n";
  Table table{"sms", {"SM", "port GUID", "LID", "state", "priority"}, {}, "No SM known."};
  std::vector<sm::SmSeen> sms = r.sms;
  std::stable_sort(sms.begin(), sms.end(), [](const sm::SmSeen& a, const sm::SmSeen& b) {
    return a.state == 3 && b.state != 3;
  });
  for (const sm::SmSeen& s : sms) {
    Cell state = text_cell(sm::state_name(s.state));
    if (s.state == 3) state.css = "state ok";
    table.rows.push_back({text_cell(s.name), text_cell(format_guid(s.port_guid)),
                          number_cell(s.lid, std::to_string(s.lid)), state,
                          number_cell(s.priority, std::to_string(s.priority))});
  }
  return html + render(table);
}

}  // namespace

std::string overview_page(const SiteContext& site, const std::string& map_svg) {
  std::string body = "<h1>InfiniBand fabric</h1>\n" + summary_section(site) + sm_section(site);
  // Fitted to the page's width whatever its size (map.js: the button shows it at its actual size,
  // scrolled within its box, and back).
  body +=
      "<h2>Health map</h2>\n<p class=\"note\">Click a switch or a cable for its page, a "
      "folded pod or group (a box) for its map. "
      "Cable colour: utilization; red dashes: errors or a degraded link; subtree roots "
      "filled by traffic locality. <button id=\"map-zoom\" type=\"button\">Actual size</button> "
      "<a href=\"map.svg\">Open the map alone</a>.</p>\n"
      "<div id=\"map\">\n" +
      map_svg + "</div>\n";
  body += worst_ports_section(site);
  body += busiest_section(site);
  return page({"Fabric overview", 0, site.generated, "map.js"}, body);
}

}  // namespace ibpm::web
