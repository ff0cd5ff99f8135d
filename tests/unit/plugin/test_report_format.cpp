// SPDX-License-Identifier: MIT
// add_format_option and print_report: the operator tools' --format and its dispatch.
#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include "plugin/report_format.hpp"

using namespace ibpm::plugin;

TEST_CASE("report formats by name", "[plugin][format]") {
  CHECK(parse_report_format("table") == ReportFormat::table);
  CHECK(parse_report_format("csv") == ReportFormat::csv);
  CHECK(parse_report_format("json") == ReportFormat::json);
  CHECK_FALSE(parse_report_format("xml"));
  CHECK(to_string(ReportFormat::csv) == "csv");
}

TEST_CASE("the --format option takes the formats a tool prints", "[plugin][format]") {
  CLI::App app("test", "ibpm-test");
  ReportFormat format = ReportFormat::table;
  CLI::Option* option = add_format_option(app, format).get();
  CHECK(option->get_description() == "table, csv or json");
  CHECK(option->get_default_str() == "table");
  SECTION("default") {
    app.parse("", false);
    CHECK(format == ReportFormat::table);
  }
  SECTION("csv") {
    app.parse("--format csv", false);
    CHECK(format == ReportFormat::csv);
  }
  SECTION("not a format") {
    CHECK_THROWS_AS(app.parse("--format xml", false), CLI::ValidationError);
  }
}

TEST_CASE("the --format option with fewer formats refuses the others", "[plugin][format]") {
  CLI::App app("test", "ibpm-test");
  ReportFormat format = ReportFormat::table;
  CLI::Option* option =
      add_format_option(app, format, {ReportFormat::table, ReportFormat::json}).get();
  CHECK(option->get_description() == "table or json");
  CHECK_THROWS_AS(app.parse("--format csv", false), CLI::ValidationError);
  app.parse("--format json", false);
  CHECK(format == ReportFormat::json);
}

TEST_CASE("print_report runs the printer of the format, else the table", "[plugin][format]") {
  std::string printed;
  const ReportPrinters all{[&] { printed = "table"; }, [&] { printed = "csv"; },
                           [&] { printed = "json"; }};
  print_report(ReportFormat::csv, all);
  CHECK(printed == "csv");
  print_report(ReportFormat::json, all);
  CHECK(printed == "json");
  print_report(ReportFormat::table, all);
  CHECK(printed == "table");
  print_report(ReportFormat::csv,
               {.table = [&] { printed = "table"; }, .csv = nullptr, .json = nullptr});
  CHECK(printed == "table");
}
