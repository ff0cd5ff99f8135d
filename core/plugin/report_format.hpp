// SPDX-License-Identifier: MIT
// The operator tools' --format option (table, csv or json) and the one place that picks the
// printer of the format asked for.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include "plugin/add_option.hpp"

namespace ibpm::plugin {

enum class ReportFormat { table, csv, json };

// "table", "csv", "json".
std::string_view to_string(ReportFormat format);

// A format by its name; nullopt for anything else.
std::optional<ReportFormat> parse_report_format(std::string_view text);

// --format taking one of `accepted` into `target`: help "table, csv or json" (as many as it
// takes), default shown `target`'s value now.
OptionRef add_format_option(CLI::App& app, ReportFormat& target,
                            std::initializer_list<ReportFormat> accepted = {
                                ReportFormat::table, ReportFormat::csv, ReportFormat::json});

// One printer per format; a format without one prints the table.
struct ReportPrinters {
  std::function<void()> table;
  std::function<void()> csv;
  std::function<void()> json;
};
void print_report(ReportFormat format, const ReportPrinters& printers);

}  // namespace ibpm::plugin
