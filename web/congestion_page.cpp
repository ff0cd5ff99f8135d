// SPDX-License-Identifier: MIT
// congestion.html: the congestion trees of the window (analysis/congestion_analysis.hpp): each
// root, the ports that wait behind it, and the jobs that cause or suffer it.
#include <string>

#include "html.hpp"
#include "page.hpp"
#include "page_parts.hpp"
#include "pages.hpp"

namespace ibpm::web {

namespace {

std::string jobs_text(const std::vector<std::string>& jobs) {
  std::string text;
  for (const std::string& job : jobs) text += (text.empty() ? "" : ", ") + job;
  return text.empty() ? "none" : text;
}

std::string tree_html(const SiteData& data, const analysis::CongestionTree& tree,
                      std::size_t number) {
  const analysis::CongestionReport& report = *data.congestion;
  const analysis::CongestedPort& root = report.ports[tree.root];
  std::string html =
      "<h2>Tree " + std::to_string(number) + ": root " + port_link(data, root.port, 0) +
      "</h2>\n<p>" + cable_link(data, root.port, 0, "its cable") + ", utilization " +
      percent_cell(root.utilization).html + ", XmitWait " + percent_cell(root.lost_share).html +
      "; " + std::to_string(tree.victims.size()) + " ports wait behind it.";
  if (!data.jobs_by_direction.empty())
    html +=
        " Jobs that cause it (their routes cross the root): " + escape(jobs_text(tree.cause_jobs)) +
        ". Jobs that suffer it (their routes cross only its victims): " +
        escape(jobs_text(tree.suffer_jobs)) + ".";
  Table table{"tree" + std::to_string(number), {"Waiting port", "XmitWait", "Utilization"}, {}, {}};
  for (std::size_t victim : tree.victims) {
    const analysis::CongestedPort& port = report.ports[victim];
    table.rows.push_back({{port_link(data, port.port, 0), {}, false, {}},
                          percent_cell(port.lost_share),
                          percent_cell(port.utilization)});
  }
  return html + "</p>\n" + render(table);
}

}  // namespace

std::string congestion_page(const SiteContext& site) {
  const SiteData& data = site.data;
  std::string body =
      "<h1>Congestion</h1>\n<p class=\"note\">In a lossless fabric a full port (a leaf's port "
      "to an incast's host, a hot uplink) makes every port that feeds it wait for credits: their "
      "XmitWait rises although their own links are far from full. Each tree is a root, the full "
      "port at its tip found by following the forwarding tables downstream from the waiting "
      "ports, with the ports that wait behind it (XmitWait above 5 % of the window; full: 90 % "
      "utilization), as ibpm-congestion finds them. On the map the root is a double line, the "
      "cables waiting behind it dotted.</p>\n";
  if (!data.congestion)
    body +=
        "<p>No congestion analysis: it needs XmitWait history in the window and the "
        "forwarding tables (ibpm-routes --refresh writes STATE_DIR/routes.lft).</p>\n";
  else if (data.congestion->trees.empty())
    body += "<p>No congestion in the window: no port waited above the threshold.</p>\n";
  else
    for (std::size_t t = 0; t < data.congestion->trees.size(); ++t)
      body += tree_html(data, data.congestion->trees[t], t + 1);
  return page({"Congestion", 0, site.generated, {}}, body);
}

}  // namespace ibpm::web
