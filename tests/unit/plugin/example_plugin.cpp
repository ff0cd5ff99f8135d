// SPDX-License-Identifier: MIT
// check_ib_example: compares --value against -w/-c. Exists to exercise run_plugin from
// the outside (exit codes, output, timeout); --throw and --sleep simulate failing and
// hanging checks.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <stdexcept>

#include "base/number.hpp"
#include "plugin/cli.hpp"

using namespace ibpm::plugin;

int main(int argc, char** argv) {
  double value = 0;
  Thresholds thresholds;
  FabricOptions fabric;
  std::string label = "value";
  std::string output;
  std::string throw_message;
  unsigned sleep_seconds = 0;

  return run_plugin(
      argc, argv,
      {.name = "check_ib_example",
       .prefix = "IB EXAMPLE",
       .description = "Example check: compares --value against the -w and -c ranges.",
       .add_options =
           [&](CLI::App& app) {
             app.add_option("--value", value, "The value to check")->required();
             add_threshold_options(app, thresholds);
             app.add_option("--label", label, "Perfdata label");
             app.add_option("--output", output, "Subcheck output text");
             app.add_option("--throw", throw_message, "Fail with this exception message");
             app.add_option("--sleep", sleep_seconds, "Block in sleep(3) for SECONDS first");
             add_fabric_options(app, fabric);
           },
       .body =
           [&](const CommonOptions& common) {
             if (sleep_seconds > 0) ::sleep(sleep_seconds);
             if (!throw_message.empty()) throw std::runtime_error(throw_message);
             Check check;
             check.summary = label + " = " + ibpm::base::format_number(value);
             if (common.verbosity > 0)
               check.summary += " (verbosity " + std::to_string(common.verbosity) + ")";
             check.subchecks.push_back(
                 {.state = thresholds.evaluate(value),
                  .output =
                      output.empty() ? label + " is " + ibpm::base::format_number(value) : output,
                  .children = {},
                  .perfdata = {{.label = label,
                                .value = value,
                                .uom = "",
                                .warn = thresholds.warning,
                                .crit = thresholds.critical,
                                .min = {},
                                .max = {}}}});
             return check;
           },
       .summary = "An example for the tests of the plugin conventions.",
       .icinga2_host_defaults = {}});
}
