// SPDX-License-Identifier: MIT

#include "viz/legend.hpp"

#include <vector>

#include "viz/color_scale.hpp"
#include "viz/graphviz_text.hpp"
#include "viz/map_text.hpp"

namespace ibpm::viz {

namespace {

std::string heading(const std::string& text) {
  return "<TR><TD COLSPAN=\"2\" ALIGN=\"LEFT\"><B>" + html_text(text) + "</B></TD></TR>";
}

std::string swatch_row(const std::string& color, const std::string& text) {
  return "<TR><TD BGCOLOR=\"" + color + "\" WIDTH=\"28\" BORDER=\"1\"> </TD><TD ALIGN=\"LEFT\">" +
         html_text(text) + "</TD></TR>";
}

std::string border_row(const HealthStyle& style, const std::string& text) {
  return "<TR><TD COLOR=\"" + style.color + "\" BORDER=\"" +
         std::to_string(static_cast<int>(style.penwidth + 0.5)) +
         "\" WIDTH=\"28\"> </TD><TD ALIGN=\"LEFT\">" + html_text(text) + "</TD></TR>";
}

std::string text_row(const std::string& symbol, const std::string& text,
                     const std::string& color = "#000000") {
  return "<TR><TD><FONT COLOR=\"" + color + "\">" + html_text(symbol) +
         "</FONT></TD><TD ALIGN=\"LEFT\">" + html_text(text) + "</TD></TR>";
}

std::string section(const std::vector<std::string>& rows) {
  std::string s = "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"2\">";
  for (const std::string& r : rows) s += r;
  return s + "</TABLE>";
}

}  // namespace

std::string legend_html(const MapGraph& map) {
  std::vector<std::string> util = {heading("link colour: utilization")};
  for (const ColorBin& bin : utilization_scale()) util.push_back(swatch_row(bin.color, bin.label));
  util.push_back(swatch_row(kNoDataColor, "no data"));

  std::vector<std::string> locality = {heading("switch fill: subtree locality")};
  for (const ColorBin& bin : locality_scale()) locality.push_back(swatch_row(bin.color, bin.label));
  locality.push_back(swatch_row("#ffffff", "not a subtree root / no data"));

  std::vector<std::string> health = {
      heading("node border: health"),
      border_row(health_style(Health::ok), "ok or no data"),
      border_row(health_style(Health::warning), "warning: degraded link"),
      border_row(health_style(Health::critical), "critical: link errors"),
  };

  std::vector<std::string> lines = {
      heading("links"),
      text_row("width", "capacity: thin " + format_bps(25e9) + ", thick " + format_bps(800e9)),
      text_row("- - -", "dashed, red label: errors or degraded", kErrorColor),
      text_row("==", "double line: a congestion root (full; others wait behind it)"),
      text_row(". . .", "dotted: waits for credits behind a congestion root (XmitWait)"),
      text_row("x4", "parallel cables drawn as one"),
      text_row("24 hosts", "the hosts of one switch, folded"),
      text_row("box", "a pod or group, folded: its map one click down; red text: faults inside"),
  };

  std::string title = "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\"><FONT POINT-SIZE=\"18\"><B>" +
                      html_text("InfiniBand fabric health map") + "</B></FONT></TD></TR>";
  title += "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\">" + html_text(map.title) + "</TD></TR>";
  title += "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\">" +
           html_text(map.window.empty() ? "no counter history" : map.window) + "</TD></TR>";
  if (!map.up_url.empty())
    title += "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\" HREF=\"" + html_text(url_text(map.up_url)) +
             "\" TOOLTIP=\"the map one level up\"><U>" + html_text("up: the map one level up") +
             "</U></TD></TR>";
  if (map.hidden_aggregation_nodes > 0)
    title += "<TR><TD COLSPAN=\"4\" ALIGN=\"LEFT\">" +
             html_text(std::to_string(map.hidden_aggregation_nodes) +
                       " SHARP aggregation nodes not drawn") +
             "</TD></TR>";
  return "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"6\" CELLPADDING=\"2\" "
         "BGCOLOR=\"#ffffff\" COLOR=\"#808080\">" +
         title + "<TR><TD VALIGN=\"TOP\">" + section(util) + "</TD><TD VALIGN=\"TOP\">" +
         section(locality) + "</TD><TD VALIGN=\"TOP\">" + section(health) +
         "</TD><TD VALIGN=\"TOP\">" + section(lines) + "</TD></TR></TABLE>";
}

}  // namespace ibpm::viz
