// SPDX-License-Identifier: MIT
// check_ib_sm: every subnet manager of the subnet, the master working (its ActCount moving), no
// second master, failovers reported once.
#include "plugin/cli_fwd.hpp"
#include "sm/sm_check.hpp"

int main(int argc, char** argv) {
  ibpm::sm::SmCheckOptions options;
  return ibpm::plugin::run_plugin(
      argc, argv,
      {.name = "check_ib_sm",
       .prefix = "IB SM",
       .description =
           "Lists every subnet manager of the subnet (the SA's SMInfo records, then SMInfo asked "
           "of each SM) with its port GUID, node description, LID, priority, state and ActCount. "
           "CRITICAL when no master answers, when more than one master is seen, or when the "
           "master's ActCount has not moved for --stale-after seconds; WARNING when fewer SMs "
           "than --expect-sms answer, the master is not --expect-master, a standby has a higher "
           "priority than the master, or the master changed since the last run (once, also "
           "logged as an event). State is kept in STATE_DIR/sm/.",
       .add_options = [&](CLI::App& app) { ibpm::sm::add_sm_check_options(app, options); },
       .body =
           [&](const ibpm::plugin::CommonOptions& common) {
             return ibpm::sm::run_sm_check(options, common);
           },
       .summary = "Every subnet manager of the subnet: the master present and working, no second "
                  "master, failovers.",
       .icinga2_host_defaults = {}});
}
