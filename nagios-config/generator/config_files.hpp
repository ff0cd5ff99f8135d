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

// Icinga 2 files for include_recursive: ibpm-settings.conf, ibpm-commands.conf,
// ibpm-templates.conf, ibpm-hosts.conf, ibpm-groups.conf, and ibpm-zones.conf with zones.
ConfigFiles icinga_files(const MonitoringPlan& plan, const CheckSettings& settings);

}  // namespace ibpm::nagios_config
