// SPDX-License-Identifier: MIT
// The options that say where a command's events go (see EventLog), in one table for every
// command that logs events.
#pragma once

#include <string>

#include "plugin/cli_fwd.hpp"

namespace ibpm::products {

// --no-syslog (clears `syslog`), --syslog-facility NAME (checked with parse_syslog_facility) and
// --events-file FILE, in help group `group`; `events` names what is logged ("port state changes",
// "failovers").
void add_event_options(CLI::App& app, bool& syslog, std::string& facility, std::string& file,
                       const std::string& events, const std::string& group);

}  // namespace ibpm::products
