// SPDX-License-Identifier: MIT
// The one adapter between a check's code and the Monitoring Plugins conventions:
// option parsing, help and version, the timeout, error handling, output and exit code.
//
//   int main(int argc, char** argv) {
//     ibpm::plugin::Thresholds thresholds;
//     return ibpm::plugin::run_plugin(argc, argv, {
//         .name = "check_ib_example", .prefix = "IB EXAMPLE", .description = "...",
//         .add_options = [&](CLI::App& app) { add_threshold_options(app, thresholds); },
//         .body = [&](const ibpm::plugin::CommonOptions&) { return ...Check...; }});
//   }
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "plugin/cli_fwd.hpp"
#include "plugin/options.hpp"
#include "plugin/render.hpp"
#include "plugin/result.hpp"

namespace ibpm::plugin {

// Options every plugin gets from run_plugin.
struct CommonOptions {
  int verbosity = 0;                         // -v, repeatable
  unsigned timeout = 30;                     // -t/--timeout SECONDS, 0 = none
  OutputFormat format = OutputFormat::text;  // --output-format text|json
};

struct PluginSpec {
  std::string name;         // program name, for --help and --version ("check_ib_topology")
  std::string prefix;       // first word(s) of the output line ("IB TOPOLOGY")
  std::string description;  // first paragraph of --help
  std::function<void(CLI::App&)> add_options;       // optional: the check's own options
  std::function<Check(const CommonOptions&)> body;  // the check itself
  // One line on what the check watches: the comment above its Icinga 2 CheckCommand.
  std::string summary;
  // Icinga 2 defaults taken from the host, as variable suffix and value: {"node", "$ib_guid$"}.
  std::vector<std::pair<std::string, std::string>> icinga2_host_defaults;
};

// Parses the command line, runs the body under the timeout, prints the result once and
// returns the exit code for main to return:
//   -h/--help         help on stdout, 3
//   -V/--version      "NAME VERSION" on stdout, 3
//   --icinga2-check-command (hidden)
//                     the check's Icinga 2 CheckCommand on stdout (icinga2_command.hpp), 0
//   usage errors      "PREFIX UNKNOWN - <reason>" (one line, always text), 3
//   body throws       "PREFIX UNKNOWN - <what()>" in the chosen format, 3
//   timeout           "PREFIX UNKNOWN - timed out after N s" in the chosen format, exit 3
//                     from the signal handler (see timeout.hpp), the only exit outside main
//   otherwise         the rendered Check, its effective state as exit code
// Help, version and usage errors exit 3 (UNKNOWN), as monitoring-plugins does: a check
// that was not run has no state. Nothing here calls exit() except the timeout handler.
int run_plugin(int argc, const char* const* argv, const PluginSpec& spec);

struct ToolSpec {
  std::string name;         // program name, for --help and the error line ("ibpm-map")
  std::string description;  // first paragraph of --help
  std::function<void(CLI::App&)> add_options;  // the tool's options (add_option.hpp)
  std::function<void()> run;                   // the tool itself, after parsing
};

// main() of the ibpm-* tools (not checks): makes the App, adds the tool's options and
// -V/--version, parses, runs. Help, version and usage errors are CLI11's (its text, its exit
// code); what `run` throws is printed as one line "NAME: reason" on stderr and gives exit 1.
int run_tool(int argc, const char* const* argv, const ToolSpec& spec);
// The same for an App the caller made and filled.
int run_tool(CLI::App& app, int argc, const char* const* argv, const std::function<void()>& run);

// IBPM_VERSION as compiled in (the CMake project version), "0.1.0" without it.
std::string_view version();

}  // namespace ibpm::plugin
