// SPDX-License-Identifier: MIT

#include "plan_fixtures.hpp"

namespace ibpm::nagios_config::test {

PlanOptions plan_options(bool cas, unsigned zones) {
  PlanOptions options;
  options.cas = cas;
  options.zones.count = zones;
  return options;
}

delegation::test::BuildOptions shuffled(unsigned seed) {
  delegation::test::BuildOptions options;
  options.shuffle_seed = seed;
  return options;
}

delegation::test::BuildOptions without(const std::string& node, unsigned seed) {
  delegation::test::BuildOptions options = shuffled(seed);
  options.without = {node};
  return options;
}

CheckSettings check_settings(const std::string& baseline) {
  CheckSettings settings;
  settings.plugin_dir = "/usr/local/bin";
  settings.state_dir = "/var/lib/ibpm";
  settings.baseline = baseline;
  return settings;
}

}  // namespace ibpm::nagios_config::test
