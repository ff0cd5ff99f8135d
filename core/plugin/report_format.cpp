// SPDX-License-Identifier: MIT

#include "plugin/report_format.hpp"

#include <CLI/CLI.hpp>
#include <vector>

namespace ibpm::plugin {

std::string_view to_string(ReportFormat format) {
  switch (format) {
    case ReportFormat::csv:
      return "csv";
    case ReportFormat::json:
      return "json";
    case ReportFormat::table:
      break;
  }
  return "table";
}

std::optional<ReportFormat> parse_report_format(std::string_view text) {
  for (const ReportFormat format : {ReportFormat::table, ReportFormat::csv, ReportFormat::json})
    if (text == to_string(format)) return format;
  return std::nullopt;
}

OptionRef add_format_option(CLI::App& app, ReportFormat& target,
                            std::initializer_list<ReportFormat> accepted) {
  std::vector<std::string> names;
  for (const ReportFormat format : accepted) names.emplace_back(to_string(format));
  std::string help;
  for (std::size_t i = 0; i < names.size(); ++i)
    help += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return app
      .add_option_function<std::string>(
          "--format", [&target](const std::string& text) { target = *parse_report_format(text); },
          help)
      ->check(CLI::IsMember(names))
      ->default_str(std::string(to_string(target)));
}

void print_report(ReportFormat format, const ReportPrinters& printers) {
  if (format == ReportFormat::json && printers.json)
    printers.json();
  else if (format == ReportFormat::csv && printers.csv)
    printers.csv();
  else
    printers.table();
}

}  // namespace ibpm::plugin
