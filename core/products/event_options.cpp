// SPDX-License-Identifier: MIT

#include "products/event_options.hpp"

#include <CLI/CLI.hpp>
#include <stdexcept>

#include "products/event_log.hpp"

namespace ibpm::products {

void add_event_options(CLI::App& app, bool& syslog, std::string& facility, std::string& file,
                       const std::string& events, const std::string& group) {
  app.add_flag("!--no-syslog", syslog, "Do not log " + events + " to syslog")->group(group);
  app.add_option("--syslog-facility", facility,
                 "Facility of the events: daemon, user, local0..local7")
      ->check([](const std::string& name) {
        try {
          parse_syslog_facility(name);
          return std::string();
        } catch (const std::invalid_argument& e) {
          return std::string(e.what());
        }
      })
      ->capture_default_str()
      ->group(group);
  app.add_option("--events-file", file, "Also append the events (" + events + ") to FILE")
      ->type_name("FILE")
      ->group(group);
}

}  // namespace ibpm::products
