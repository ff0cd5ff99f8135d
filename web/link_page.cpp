// SPDX-License-Identifier: MIT
// links/0xGUID-PORT.html: one cable, both directions over the window, its profile and errors.
#include "base/number.hpp"
#include "page.hpp"
#include "page_parts.hpp"
#include "pages.hpp"

namespace ibpm::web {

namespace {

constexpr int kLinkPageDepth = 1;

std::vector<Cell> direction_row(const SiteData& data, const history::DirectionUsage& d) {
  return {{port_link(data, d.from, kLinkPageDepth), {}, false, {}},
          {port_link(data, d.to, kLinkPageDepth), {}, false, {}},
          rate_cell(d.measured ? std::optional<double>(d.average_octets_s) : std::nullopt),
          percent_cell(d.measured ? d.average_util : std::nullopt),
          percent_cell(d.measured ? d.peak_util : std::nullopt),
          d.xmit_wait_pct
              ? number_cell(*d.xmit_wait_pct, base::format_fixed(*d.xmit_wait_pct, 1) + " %")
              : number_cell(std::nullopt, "-"),
          per_second_cell(d.errors_s)};
}

// Each end's bit error ratios over the BER windows, as the collectors on this host last judged
// them (a window not covered yet says how much history it has).
Table ber_table(const SiteData& data, const Link& cable) {
  Table table{"ber", {"Port", "Ratio", "Window", "Errors", "Bits", "95 % bounds"}, {}, {}};
  for (const PortRef& end : {cable.a, cable.b}) {
    const auto found = data.ber.find(end);
    if (found == data.ber.end()) continue;
    for (const link_quality::BerWindow& w : found->second.windows) {
      std::vector<Cell> row{{port_link(data, end, kLinkPageDepth), {}, false, {}},
                            {escape(link_quality::ber_metric(w.counter)), {}, false, {}},
                            {escape(link_quality::format_window(w.window)), {}, false, {}}};
      if (!w.judged()) {
        row[1].html += ": not judged";
        row.push_back(number_cell(w.ber.errors, base::format_fixed(w.ber.errors, 0)));
        row.push_back({"history for " + escape(link_quality::format_window(w.covered)) + " only",
                       {},
                       false,
                       {}});
        row.push_back(number_cell(std::nullopt, "-"));
      } else {
        row[1].html += " " + escape(link_quality::format_ber(w.ber.ratio));
        row.push_back(number_cell(w.ber.errors, base::format_fixed(w.ber.errors, 0)));
        row.push_back(number_cell(w.ber.bits, link_quality::format_ber(w.ber.bits)));
        row.push_back(w.ber.errors > 0
                          ? Cell{escape(link_quality::format_ber(w.ber.lower) + " .. " +
                                        link_quality::format_ber(w.ber.upper)),
                                 {},
                                 false,
                                 {}}
                          : number_cell(std::nullopt, "-"));
      }
      table.rows.push_back(std::move(row));
    }
  }
  table.empty_note = "No bit error ratios: no sample record in the state directory has this cable.";
  return table;
}

}  // namespace

std::string link_page_html(const SiteContext& site, std::size_t link_index) {
  const SiteData& data = site.data;
  const Link& cable = data.fabric().links()[link_index];
  const std::string title = data.port_name(cable.a) + " - " + data.port_name(cable.b);
  std::string body = "<h1>" + escape(title) + "</h1>\n<p>" +
                     port_link(data, cable.a, kLinkPageDepth) + " to " +
                     port_link(data, cable.b, kLinkPageDepth);
  const Port* a = data.fabric().find_port(cable.a);
  if (a && a->width && a->speed)
    body +=
        ", " + escape(std::string(to_string(*a->width)) + " " + std::string(to_string(*a->speed)));
  if (const viz::LinkAnnotation* note = data.annotations.link(link_index); note && note->degraded)
    body += " <span class=\"state warning\">degraded: " + escape(note->degradation) + "</span>";
  if (const viz::LinkAnnotation* note = data.annotations.link(link_index);
      note && note->routed_a_to_b && note->routed_b_to_a)
    body += "<br>The switches' forwarding tables route " + std::to_string(*note->routed_a_to_b) +
            " host pairs from " + escape(data.port_name(cable.a)) + " and " +
            std::to_string(*note->routed_b_to_a) + " from " + escape(data.port_name(cable.b)) +
            " through this cable (ibpm-routes --cable " + escape(data.port_name(cable.a)) +
            " lists them).";
  for (const PortRef& from : {cable.a, cable.b})
    if (const auto jobs = data.jobs_by_direction.find(from); jobs != data.jobs_by_direction.end()) {
      std::string ids;
      for (const std::string& id : jobs->second) ids += (ids.empty() ? "" : ", ") + id;
      body += "<br>Jobs routed out of " + escape(data.port_name(from)) + ": <span class=\"jobs\">" +
              escape(ids) + "</span>";
    }
  body += "</p>\n";
  Table table{
      "directions", {"From", "To", "Rate", "Utilization", "Peak", "XmitWait", "Errors"}, {}, {}};
  if (const history::LinkUsage* usage = data.link_usage(link_index)) {
    table.rows.push_back(direction_row(data, usage->a_to_b));
    table.rows.push_back(direction_row(data, usage->b_to_a));
  }
  table.empty_note = "No counter history for this cable.";
  body += render(table);
  body += "<h2>Bit error ratios</h2>\n" + render(ber_table(data, cable));
  body += "<div class=\"graphs\">\n";
  if (auto g = site.graphs.links.find(link_index); g != site.graphs.links.end())
    body += figure(g->second, "utilization of " + title, "utilization, both directions",
                   kLinkPageDepth);
  for (const PortRef& end : {cable.a, cable.b})
    if (auto g = site.graphs.port_errors.find(end); g != site.graphs.port_errors.end())
      body += figure(g->second, "errors of " + data.port_name(end),
                     "errors of " + port_link(data, end, kLinkPageDepth), kLinkPageDepth);
  body += "</div>\n";
  return page({title, kLinkPageDepth, site.generated, {}}, body);
}

}  // namespace ibpm::web
