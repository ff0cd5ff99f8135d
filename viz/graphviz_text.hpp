// SPDX-License-Identifier: MIT
// Text from the fabric on its way into Graphviz attributes. NodeDescriptions are untrusted: a
// switch can be named `<script>`, `"`, or `\N`, which Graphviz expands to the node's name in
// labels, tooltips and URLs (and `\G`, `\E`, `\T`, `\H`, `\L`, `\n`, `\l`, `\r` likewise). Every
// function here first makes the text valid UTF-8 and turns control characters into spaces.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ibpm::viz {

// valid UTF-8, C0/C1 controls and DEL as spaces.
std::string printable(std::string_view text);

// Text inside an HTML-like label that we build ourselves (agstrdup_html): the XML specials as
// entities, and '\' doubled (Graphviz unescapes HTML label text once).
std::string html_text(std::string_view text);

// One line of a tooltip. Graphviz unescapes tooltips twice (as escString, then again when it
// writes them), so one literal '\' takes four; '&' becomes "&amp;", as the SVG writer passes
// anything that looks like an entity through unescaped.
std::string tooltip_text(std::string_view text);
// Lines joined with Graphviz's line break, each escaped with tooltip_text.
std::string tooltip(const std::vector<std::string>& lines);

// A URL as Graphviz should pass it on: '\' (escString), quotes, angle brackets, spaces, controls
// and non-ASCII bytes percent-encoded; everything else as given.
std::string url_text(std::string_view url);

}  // namespace ibpm::viz
