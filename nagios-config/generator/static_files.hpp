// SPDX-License-Identifier: MIT
// The static configuration files of nagios-config/nagios and nagios-config/icinga2, built into
// the generator so that it writes the same commands and templates operators can use by hand.
#pragma once

#include <string_view>

namespace ibpm::nagios_config::static_files {

extern const std::string_view nagios_commands;   // nagios/ibpm-commands.cfg
extern const std::string_view nagios_templates;  // nagios/ibpm-templates.cfg
extern const std::string_view icinga_commands;   // icinga2/ibpm-commands.conf
extern const std::string_view icinga_templates;  // icinga2/ibpm-templates.conf

}  // namespace ibpm::nagios_config::static_files
