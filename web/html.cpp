// SPDX-License-Identifier: MIT

#include "html.hpp"

#include <algorithm>
#include <cctype>

#include "base/number.hpp"
#include "base/text.hpp"

namespace ibpm::web {

std::string escape(std::string_view text) {
  std::string shown;
  shown.reserve(text.size());
  for (char c : base::valid_utf8(text)) {
    if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
      shown += "\xEF\xBF\xBD";  // U+FFFD
    else
      shown += c;
  }
  return base::html_escape(shown);
}

std::string link(std::string_view href, std::string_view text) {
  return "<a href=\"" + escape(href) + "\">" + escape(text) + "</a>";
}

Cell text_cell(std::string_view text) { return {escape(text), std::nullopt, false, {}}; }

Cell number_cell(std::optional<double> value, std::string shown) {
  return {std::move(shown), value, true, {}};
}

Cell state_cell(std::string_view state) {
  std::string css = "state ";
  for (char c : state) css += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return {escape(state), std::nullopt, false, css};
}

std::string render(const Table& table) {
  std::string html = "<table class=\"sortable\" id=\"" + escape(table.id) + "\">\n<thead><tr>";
  for (const std::string& header : table.headers) html += "<th>" + escape(header) + "</th>";
  html += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    html += "<tr>";
    for (const Cell& cell : row) {
      std::string css = cell.css;
      if (cell.numeric) css += css.empty() ? "num" : " num";
      html += "<td";
      if (!css.empty()) html += " class=\"" + css + "\"";
      if (cell.numeric)
        html += " data-value=\"" + (cell.value ? base::format_number(*cell.value) : "") + "\"";
      html += ">" + cell.html + "</td>";
    }
    html += "</tr>\n";
  }
  html += "</tbody>\n</table>\n";
  if (table.rows.empty() && !table.empty_note.empty())
    html += "<p class=\"note\">" + escape(table.empty_note) + "</p>\n";
  return html;
}

}  // namespace ibpm::web
