// SPDX-License-Identifier: MIT
// check_ib_sm's options and run: survey the SMs, judge them against what the last run remembered,
// remember this run (STATE_DIR/sm/CA-PORT.state), log a failover as an event. With --replay the
// survey's answers, its SM LID and its times are a --record recording's (no HCA is opened).
#pragma once

#include <optional>
#include <string>

#include "plugin/cli.hpp"
#include "plugin/options.hpp"
#include "poll/poll_options.hpp"
#include "sm/judgement.hpp"

namespace ibpm::sm {

struct SmCheckOptions {
  plugin::FabricOptions fabric;  // -C, -P, --node-name-map, --state-dir, --record, --replay
  std::optional<unsigned> expect_sms;
  std::string expect_master;
  unsigned stale_after = 60;
  poll::MadOptions mad;
  bool syslog = true;
  std::string syslog_facility = "daemon";
  std::string events_file;
};

void add_sm_check_options(CLI::App& app, SmCheckOptions& options);

plugin::Check run_sm_check(const SmCheckOptions& options, const plugin::CommonOptions& common);

}  // namespace ibpm::sm
