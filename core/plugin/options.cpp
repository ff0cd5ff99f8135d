// SPDX-License-Identifier: MIT

#include "plugin/options.hpp"

#include <CLI/CLI.hpp>
#include <stdexcept>

namespace ibpm::plugin {

void add_fabric_options(CLI::App& app, FabricOptions& options) {
  const std::string group = "Fabric";
  app.add_option("-C,--Ca", options.ca, "InfiniBand device (HCA) to use")
      ->type_name("CA")
      ->group(group);
  app.add_option("-P,--Port", options.port, "HCA port to use (0: the first active port)")
      ->type_name("PORT")
      ->check(CLI::Range(0, 254))
      ->group(group);
  app.add_option("--cache", options.cache, "Read the fabric from this ibnetdiscover cache file")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--node-name-map", options.node_name_map, "Node name map file")
      ->type_name("FILE")
      ->group(group);
  app.add_option("--state-dir", options.state_dir, "Directory for state kept between runs")
      ->type_name("DIR")
      ->capture_default_str()
      ->group(group);
}

CLI::Option* add_range_option(CLI::App& app, const std::string& name, std::optional<Range>& target,
                              const std::string& description) {
  // The validator makes CLI11 name the option in the error ("--warning: invalid range ...");
  // the callback then parses text that is known to be valid.
  const CLI::Validator valid_range(
      [](std::string& text) {
        try {
          parse_range(text);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      },
      "");
  return app
      .add_option_function<std::string>(
          name, [&target](const std::string& text) { target = parse_range(text); }, description)
      ->type_name("RANGE")
      ->check(valid_range);
}

void add_threshold_options(CLI::App& app, Thresholds& thresholds) {
  add_range_option(app, "-w,--warning", thresholds.warning,
                   "WARNING when the value alerts this range");
  add_range_option(app, "-c,--critical", thresholds.critical,
                   "CRITICAL when the value alerts this range");
}

}  // namespace ibpm::plugin
