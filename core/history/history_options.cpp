// SPDX-License-Identifier: MIT

#include "history/history_options.hpp"

#include "plugin/options.hpp"

namespace ibpm::history {

void add_history_options(CLI::App& app, HistoryOptions& options, DrawsMaps draws_maps) {
  plugin::add_option(app, "--window", options.window, "Seconds of history to analyse, up to now")
      .in_range(1L, 400L * 86400)
      .show_default();
  plugin::add_rrdcached_option(app, options.rrdcached,
                               "every port's history is read through it, in one exchange (each "
                               "file flushed first; over TCP the files need not be on this host)");
  std::string timeout =
      "Give up on rrdcached after SECONDS: the ports not yet read have no history, the output "
      "says so, and the exit status is 1 when no port's history could be read";
  if (draws_maps == DrawsMaps::yes)
    timeout +=
        ". Then ibpm-draw has SECONDS to draw the maps: past them it is killed and named, exit 1";
  plugin::add_timeout_option(app, options.timeout, timeout)
      .type_name("SECONDS")
      .in_range(1L, 86400L);
}

}  // namespace ibpm::history
