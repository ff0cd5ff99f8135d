// SPDX-License-Identifier: MIT

#include "products/event_options.hpp"

#include <stdexcept>

#include "plugin/add_option.hpp"
#include "products/event_log.hpp"

namespace ibpm::products {

void add_event_options(CLI::App& app, bool& syslog, std::string& facility, std::string& file,
                       const std::string& events, const std::string& group) {
  plugin::add_flag(app, "!--no-syslog", syslog, "Do not log " + events + " to syslog").group(group);
  plugin::add_option(app, "--syslog-facility", facility,
                     "Facility of the events: daemon, user, local0..local7")
      .check([](const std::string& name) {
        try {
          parse_syslog_facility(name);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      })
      .show_default()
      .group(group);
  plugin::add_option(app, "--events-file", file, "Also append the events (" + events + ") to FILE")
      .type_name("FILE")
      .group(group);
}

}  // namespace ibpm::products
