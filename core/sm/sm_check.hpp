// SPDX-License-Identifier: MIT
// check_ib_sm's options and run: survey the SMs, judge them against what the last run remembered,
// remember this run (STATE_DIR/sm/CA-PORT.state), log a failover as an event.
#pragma once

#include <optional>
#include <string>

#include "plugin/cli.hpp"
#include "poll/poll_options.hpp"
#include "sm/judgement.hpp"

namespace ibpm::sm {

struct SmCheckOptions {
  std::string ca;
  int port = 0;
  std::string state_dir = "/var/lib/ibpm";
  std::string node_name_map;
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
