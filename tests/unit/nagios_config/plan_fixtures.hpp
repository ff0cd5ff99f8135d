// SPDX-License-Identifier: MIT
// Options and fabrics the generator tests build the same way.
#pragma once

#include <string>

#include "../delegation/test_fabrics.hpp"
#include "check_settings.hpp"
#include "monitoring_plan.hpp"

namespace ibpm::nagios_config::test {

PlanOptions plan_options(bool cas, unsigned zones = 0);
// The fabric built in a shuffled order (another discovery of the same cabling).
delegation::test::BuildOptions shuffled(unsigned seed);
// Shuffled, and without `node` and its cables.
delegation::test::BuildOptions without(const std::string& node, unsigned seed);
CheckSettings check_settings(const std::string& baseline);

}  // namespace ibpm::nagios_config::test
