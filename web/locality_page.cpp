// SPDX-License-Identifier: MIT
// locality.html: how much of each subtree's traffic stays inside it (ibpm paper, section 3).
#include "locality/locality_report.hpp"
#include "page.hpp"
#include "page_parts.hpp"
#include "pages.hpp"

namespace ibpm::web {

std::string locality_page(const SiteContext& site) {
  const SiteData& data = site.data;
  Table table{"locality",
              {"Set", "Level", "Hosts", "Generated", "Consumed", "Out", "In", "l_gen", "l_con", "l",
               "Note"},
              {},
              {}};
  table.empty_note = "No counter history in the window: nothing to compute.";
  for (const locality::SetTraffic& t : locality::sorted(data.traffic, locality::SortOrder::level)) {
    const locality::NodeSet& set = *t.set;
    std::string name_html = escape(set.name);
    if (set.roots.size() == 1) name_html = node_link(data, set.roots.front(), 0);
    std::string note = t.transit ? "TRANSIT: " + t.note : t.note;
    if (t.unmeasured > 0)
      note += (note.empty() ? "" : "; ") + std::to_string(t.unmeasured) + " unmeasured";
    table.rows.push_back(
        {{name_html, {}, false, {}},
         text_cell(data.levels->name(set.level)),
         number_cell(static_cast<double>(set.hosts.size()), std::to_string(set.hosts.size())),
         rate_cell(t.gen),
         rate_cell(t.con),
         rate_cell(t.out),
         rate_cell(t.in),
         ratio_cell(t.l_gen),
         ratio_cell(t.l_con),
         ratio_cell(t.l),
         text_cell(note)});
  }
  const std::string body =
      "<h1>Traffic locality</h1>\n<p class=\"note\">Per subtree over the window: generated and "
      "consumed are the data its hosts sent and received, out and in the data on the cables that "
      "cross its border. l_gen = 1 - out/gen, l_con = 1 - in/con, l = 1 - (out + in) / (gen + "
      "con): "
      "1 means the subtree's jobs talk only among themselves. TRANSIT marks sets the formula does "
      "not hold for (traffic passes through them). Sets under 1 MB/s have no locality.</p>\n" +
      render(table);
  return page({"Traffic locality", 0, site.generated, {}}, body);
}

}  // namespace ibpm::web
