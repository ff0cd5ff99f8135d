// SPDX-License-Identifier: MIT
// The files of one generated configuration: name -> content, written together.
#pragma once

#include <map>
#include <string>

#include "check_settings.hpp"
#include "monitoring_plan.hpp"

namespace ibpm::nagios_config {

using ConfigFiles = std::map<std::string, std::string>;

// Nagios 4 object files for cfg_dir=: ibpm-commands.cfg, ibpm-templates.cfg, ibpm-hosts.cfg,
// ibpm-hostgroups.cfg, ibpm-services.cfg.
ConfigFiles nagios_files(const MonitoringPlan& plan, const CheckSettings& settings);

// Icinga 2 files (ibpm-commands.conf only without settings.packaged_commands). Without zones,
// for include_recursive: ibpm-settings.conf, ibpm-commands.conf,
// ibpm-templates.conf, ibpm-hosts.conf, ibpm-groups.conf. With zones, for Icinga 2's config
// sync: ibpm-zones.conf (endpoints and zones; every node includes it), ibpm-master.conf (the
// master includes it: include_zones of ibpm-zones.d), and ibpm-zones.d/ZONE/ for the global zone
// (settings, commands, templates, groups), the master's zone (the fabric host) and each
// satellite zone (its shard's host and the switches it polls).
ConfigFiles icinga_files(const MonitoringPlan& plan, const CheckSettings& settings);

}  // namespace ibpm::nagios_config
