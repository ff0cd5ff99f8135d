// SPDX-License-Identifier: MIT
// The simulator's fabric generator and ibpm-nagios-config run as an operator runs them, for the
// tests of the generated configuration.
#pragma once

#include <string>
#include <vector>

#include "support/temp_dir.hpp"

namespace ibpm::nagios_test {

// DIR/NAME: an ibnetdiscover dump of a fat tree of HOSTS hosts and RADIX-port switches, written
// by `ibpm-sim generate`. Fails the test when the generator fails.
std::string generated_fat_tree(const ibpm::test::TempDir& dir, const std::string& name, int hosts,
                               int radix);

// `ibpm-nagios-config --format FORMAT -o OUT --cache DUMP --state-dir DIR/state`, then MORE.
// Fails the test when the generator fails.
void run_config_generator(const ibpm::test::TempDir& dir, const std::string& format,
                          const std::string& out, const std::string& dump,
                          const std::vector<std::string>& more = {});

}  // namespace ibpm::nagios_test
