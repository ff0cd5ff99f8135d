// SPDX-License-Identifier: MIT

#include "sm/sm_check.hpp"

#include "layout/state_layout.hpp"
#include "mad/mad_link.hpp"
#include "plugin/options.hpp"
#include "products/event_log.hpp"
#include "products/event_options.hpp"
#include "sm/remembered_file.hpp"
#include "sm/survey.hpp"
#include "state/directories.hpp"

namespace ibpm::sm {

void add_sm_check_options(CLI::App& app, SmCheckOptions& options) {
  const std::string fabric = "Fabric";
  plugin::add_local_port_options(app, options.fabric.ca, options.fabric.port, fabric);
  plugin::add_node_name_map_option(app, options.fabric.node_name_map, fabric);
  plugin::add_state_dir_option(app, options.fabric.state_dir, fabric);
  const std::string sms = "Subnet managers";
  plugin::add_option(app, "--expect-sms", options.expect_sms,
                     "WARNING when fewer SMs than N answer (the sms perfdata's warning range N:)")
      .type_name("N")
      .in_range(1, 64)
      .group(sms);
  plugin::add_option(app, "--expect-master", options.expect_master,
                     "WARNING when the master is not this SM: a port GUID (0x...) or a node "
                     "description")
      .type_name("GUID|NAME")
      .group(sms);
  plugin::add_option(
      app, "--stale-after", options.stale_after,
      "CRITICAL when the master's ActCount has not moved for SECONDS (checked against "
      "the last run's)")
      .type_name("SECONDS")
      .in_range(1, 86400)
      .show_default()
      .group(sms);
  poll::add_mad_options(app, options.mad, "MADs");
  poll::add_recording_options(app, options.fabric, poll::ReplayTopology::none);
  const std::string events = "Events";
  products::add_event_options(app, options.syslog, options.syslog_facility, options.events_file,
                              "failovers", events);
}

plugin::Check run_sm_check(const SmCheckOptions& options, const plugin::CommonOptions& common) {
  const auto start = std::chrono::steady_clock::now();
  mad::EngineOptions engine = options.mad.engine();
  if (common.timeout > 0) engine.deadline = start + std::chrono::milliseconds(common.timeout * 900);

  // Opened first: a recording that cannot be used stops the check at once.
  mad::MadTap tap(options.fabric.record, options.fabric.replay,
                  poll::record_rotation(options.fabric));
  mad::MadLink link(options.fabric.ca, options.fabric.port, tap);
  const layout::StateLayout state(options.fabric.state_dir);
  state::make_directories(state.sm_dir());
  const std::string path = state.sm_state(link.local().ca_name, link.local().port_number);
  // A state file that cannot be used (a link, a FIFO, too large, damaged) is named once: this
  // run goes on as a first run, and its state replaces the file.
  const Recalled recalled = recall_remembered(path);
  const std::optional<Remembered>& before = recalled.remembered;

  const std::optional<NodeNameMap> names = NodeNameMap::load_if_named(options.fabric.node_name_map);
  const Survey seen =
      survey(link, before ? before->sms : std::vector<SmSeen>{}, engine, names ? &*names : nullptr);
  Expectations expect;
  expect.sms = options.expect_sms;
  expect.master = options.expect_master;
  expect.stale_after = std::chrono::seconds(options.stale_after);
  // The ActCounts' time: when their answers came (a replay's are the recording's, so the rates
  // and the stale master come out as they did live).
  const auto now = seen.answered_at.value_or(tap.now());
  Judgement judgement = judge(seen.sms, before, expect, now, seen.sa_seconds);
  write_remembered(path, judgement.next);

  plugin::Check& check = judgement.check;
  if (!recalled.problem.empty())
    check.subchecks.push_back({plugin::State::ok,
                               recalled.problem + " (not used: replaced by this run's state)",
                               {},
                               {}});
  if (!seen.sa_problem.empty())
    check.subchecks.push_back(
        {plugin::State::ok,
         seen.sa_problem +
             (seen.sms.empty() && !before ? std::string() : std::string(" (SMs asked directly)")),
         {},
         {}});
  if (!judgement.failover.empty()) {
    products::EventLogOptions log_options;
    log_options.syslog_ident = "check_ib_sm";
    if (options.syslog)
      log_options.syslog_facility = products::parse_syslog_facility(options.syslog_facility);
    log_options.file = options.events_file;
    try {
      products::EventLog(log_options)
          .write_message(plugin::State::warning, judgement.failover, now);
    } catch (const std::runtime_error& e) {
      check.subchecks.push_back({plugin::State::unknown, e.what(), {}, {}});
    }
  }
  if (common.verbosity > 0)
    check.subchecks.push_back({plugin::State::ok, poll::describe(seen.mads), {}, {}});
  return check;
}

}  // namespace ibpm::sm
