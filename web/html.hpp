// SPDX-License-Identifier: MIT
// HTML text from fabric data: every string the fabric gave (node descriptions above all) goes
// through escape() before it reaches a page, so a description holding markup shows as text.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ibpm::web {

// &, <, >, " and ' as entities; control characters (but tab) as U+FFFD.
std::string escape(std::string_view text);

// <a href="HREF">escaped text</a>; href is one of our own relative paths, escaped all the same.
std::string link(std::string_view href, std::string_view text);

// A table the page's script can sort: cells are HTML (escape what comes from the fabric);
// a cell with a sort value sorts as a number (nullopt: no value, sorts last).
struct Cell {
  std::string html;
  std::optional<double> value;
  bool numeric = false;  // right-aligned and sorted as a number (value may still be empty)
  std::string css;       // extra class, e.g. "state critical"
};

Cell text_cell(std::string_view text);                             // escaped
Cell number_cell(std::optional<double> value, std::string shown);  // shown as it is
Cell state_cell(std::string_view state);                           // "OK", "CRITICAL", ...

struct Table {
  std::string id;
  std::vector<std::string> headers;  // plain text
  std::vector<std::vector<Cell>> rows;
  std::string empty_note;  // shown instead of an empty table body's rows
};

std::string render(const Table& table);

}  // namespace ibpm::web
