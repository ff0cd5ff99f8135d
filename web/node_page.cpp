// SPDX-License-Identifier: MIT
// nodes/0xGUID.html: one node, each cabled port with its link, rates over the window, the last
// raw counters and its graphs.
#include <ctime>

#include "base/number.hpp"
#include "page.hpp"
#include "page_parts.hpp"
#include "pages.hpp"

namespace ibpm::web {

namespace {

constexpr int kNodePageDepth = 1;

std::string fact(const std::string& name, const std::string& value_html) {
  return "<tr><th scope=\"row\">" + escape(name) + "</th><td>" + value_html + "</td></tr>\n";
}

std::string facts(const SiteContext& site, std::size_t node_index) {
  const SiteData& data = site.data;
  const Node& node = data.fabric().nodes()[node_index];
  std::string html = "<table class=\"facts\">\n";
  html += fact("GUID", "<span class=\"guid\">" + format_guid(node.guid) + "</span>");
  html += fact("Type", escape(std::string(to_string(node.type))));
  html += fact("Description", escape(node.description));
  if (node.type == NodeType::sw)
    html += fact("Level", escape(data.levels->name(data.levels->level(node_index))));
  std::string lids;
  node.for_each_port([&](const Port& port) {
    if (port.lid && (node.type != NodeType::sw || port.number == 0))
      lids += (lids.empty() ? "" : ", ") + std::to_string(*port.lid);
  });
  if (!lids.empty()) html += fact("LID", lids);
  html += fact("Ports", std::to_string(node.port_count));
  if (const viz::NodeAnnotation* note = data.annotations.node(node_index)) {
    std::string health = "<span class=\"" +
                         escape("state " + std::string(viz::to_string(note->health))) + "\">" +
                         escape(std::string(viz::to_string(note->health))) + "</span>";
    if (!note->health_reason.empty()) health += " " + escape(note->health_reason);
    html += fact("Health", health);
    if (note->locality)
      html += fact("Subtree locality",
                   "l " + base::format_fixed(*note->locality, 2) +
                       (note->transit ? " (transit: " + escape(note->locality_note) + ")" : ""));
  }
  return html + "</table>\n";
}

// "SymbolErrorCounter 40, PortXmitWait 1234": the last sample's error and wait counters that are
// not zero (data counters are shown as rates).
std::string last_counters(const PortState* state) {
  if (!state || !state->last) return "-";
  std::string text;
  for (const counters::CounterSpec& s : counters::counter_specs()) {
    if (!s.error && s.id != counters::Counter::xmit_wait) continue;
    const auto& value = state->last->raw[static_cast<std::size_t>(s.id)];
    if (!value || *value == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(s.name) + " " + std::to_string(*value);
  }
  return text.empty() ? "no errors" : text;
}

std::string ports_section(const SiteContext& site, std::size_t node_index, std::string& graphs) {
  const SiteData& data = site.data;
  const Fabric& fabric = data.fabric();
  const Node& node = fabric.nodes()[node_index];
  Table table{"ports",
              {"Port", "State", "Link", "Remote", "Sent", "Received", "Sent util.", "XmitWait",
               "Errors", "Last counters", "Cable"},
              {},
              {}};
  table.empty_note = "No cabled port.";
  node.for_each_port([&](const Port& port) {
    if (!port.link) return;
    const PortRef ref{node.guid, port.number};
    const auto remote = fabric.remote(ref);
    const history::LinkUsage* usage = data.link_usage(*port.link);
    const history::DirectionUsage* out = nullptr;
    const history::DirectionUsage* in = nullptr;
    if (usage) {
      out = usage->a_to_b.from == ref ? &usage->a_to_b : &usage->b_to_a;
      in = out == &usage->a_to_b ? &usage->b_to_a : &usage->a_to_b;
    }
    const PortState* state = data.port(ref);
    std::string link_text = port.width ? std::string(to_string(*port.width)) : "?";
    link_text += " ";
    link_text += port.speed ? std::string(to_string(*port.speed)) : "?";
    const viz::LinkAnnotation* note = data.annotations.link(*port.link);
    if (note && note->degraded) link_text += " (degraded: " + note->degradation + ")";
    auto measured_rate = [](const history::DirectionUsage* d) {
      return d && d->measured ? std::optional<double>(d->average_octets_s) : std::nullopt;
    };
    table.rows.push_back(
        {number_cell(port.number, std::to_string(port.number)),
         text_cell(std::string(to_string(port.state))),
         {escape(link_text), {}, false, note && note->degraded ? "state warning" : ""},
         {remote ? port_link(data, *remote, kNodePageDepth) : "-", {}, false, {}},
         rate_cell(measured_rate(out)),
         rate_cell(measured_rate(in)),
         percent_cell(out && out->measured ? out->average_util : std::nullopt),
         out && out->xmit_wait_pct
             ? number_cell(*out->xmit_wait_pct, base::format_fixed(*out->xmit_wait_pct, 1) + " %")
             : number_cell(std::nullopt, "-"),
         state ? per_second_cell(history::error_rate(state->history))
               : number_cell(std::nullopt, "-"),
         {escape(last_counters(state)), {}, false, {}},
         {cable_link(data, ref, kNodePageDepth, "cable"), {}, false, {}}});
    const std::string caption =
        "port " + std::to_string(port.number) + " - " +
        (remote ? port_link(data, *remote, kNodePageDepth) : std::string("?"));
    if (auto g = site.graphs.links.find(*port.link); g != site.graphs.links.end())
      graphs += figure(g->second, "utilization of port " + std::to_string(port.number), caption,
                       kNodePageDepth);
    if (auto g = site.graphs.port_errors.find(ref); g != site.graphs.port_errors.end())
      graphs += figure(g->second, "errors of port " + std::to_string(port.number),
                       "errors of port " + std::to_string(port.number), kNodePageDepth);
  });
  return render(table);
}

// Every counter of every port as the last sample read it (the data counters in 4-octet words,
// as the PMA counts them), for comparing with perfquery.
std::string raw_counters_section(const SiteContext& site, std::size_t node_index) {
  const SiteData& data = site.data;
  const Node& node = data.fabric().nodes()[node_index];
  Table table{"counters", {"Port", "Sampled (UTC)"}, {}, {}};
  for (const counters::CounterSpec& s : counters::counter_specs())
    table.headers.emplace_back(s.name);
  node.for_each_port([&](const Port& port) {
    const PortState* state = data.port({node.guid, port.number});
    if (!state || !state->last) return;
    const state::PortRecord& last = *state->last;
    char when[32];
    const std::time_t t = static_cast<std::time_t>(last.time);
    std::tm tm{};
    gmtime_r(&t, &tm);
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    std::vector<Cell> row{number_cell(port.number, std::to_string(port.number)), text_cell(when)};
    for (const counters::CounterSpec& s : counters::counter_specs()) {
      const auto& value = last.raw[static_cast<std::size_t>(s.id)];
      const bool saturated = last.saturated & counter_bit(s.id);
      if (!value) {
        row.push_back(number_cell(std::nullopt, "-"));
        continue;
      }
      Cell cell = number_cell(static_cast<double>(*value),
                              std::to_string(*value) + (saturated ? " (at its maximum)" : ""));
      if (saturated) cell.css = "state warning";
      row.push_back(std::move(cell));
    }
    table.rows.push_back(std::move(row));
  });
  if (table.rows.empty()) return {};
  return "<details><summary>Raw counters of the last sample</summary>\n<div class=\"wide\">" +
         render(table) + "</div></details>\n";
}

// The hosts a switch serves (the map's folded "N hosts" node leads here).
std::string hosts_section(const SiteContext& site, std::size_t node_index) {
  const SiteData& data = site.data;
  const Fabric& fabric = data.fabric();
  const Node& node = fabric.nodes()[node_index];
  std::string items;
  node.for_each_port([&](const Port& port) {
    const auto remote = port.link ? fabric.remote({node.guid, port.number}) : std::nullopt;
    if (!remote) return;
    const std::size_t r = fabric.index_of(remote->node);
    if (fabric.nodes()[r].type != NodeType::ca) return;
    items += "<li>" + node_link(data, r, kNodePageDepth) + " (port " + std::to_string(port.number) +
             ")</li>";
  });
  if (items.empty()) return {};
  return "<h2 id=\"hosts\">Hosts</h2>\n<ul class=\"hosts\">" + items + "</ul>\n";
}

}  // namespace

std::string node_page_html(const SiteContext& site, std::size_t node_index) {
  const SiteData& data = site.data;
  std::string graphs;
  std::string body = "<h1>" + escape(data.name(node_index)) + "</h1>\n" + facts(site, node_index);
  if (auto g = site.graphs.switches.find(node_index); g != site.graphs.switches.end())
    body += "<div class=\"graphs\">" +
            figure(g->second, "utilization of the switch", "sent up and down", kNodePageDepth) +
            "</div>\n";
  body +=
      "<h2>Ports</h2>\n<p class=\"note\">Rates are averages over the window; the last "
      "counters are the raw values of the last sample.</p>\n" +
      ports_section(site, node_index, graphs);
  body += raw_counters_section(site, node_index);
  body += hosts_section(site, node_index);
  if (!graphs.empty()) body += "<h2>History</h2>\n<div class=\"graphs\">\n" + graphs + "</div>\n";
  return page({data.name(node_index), kNodePageDepth, site.generated, {}}, body);
}

}  // namespace ibpm::web
