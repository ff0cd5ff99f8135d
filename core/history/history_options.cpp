// SPDX-License-Identifier: MIT

#include "history/history_options.hpp"

#include <CLI/CLI.hpp>

#include "plugin/options.hpp"

namespace ibpm::history {

void add_history_options(CLI::App& app, HistoryOptions& options) {
  app.add_option("--window", options.window, "Seconds of history to analyse, up to now")
      ->check(CLI::Range(1L, 400L * 86400))
      ->capture_default_str();
  plugin::add_rrdcached_option(app, options.rrdcached,
                               "every port's history is read through it, in one exchange (each "
                               "file flushed first; over TCP the files need not be on this host)");
  app.add_option("-t,--timeout", options.timeout,
                 "Give up on rrdcached after SECONDS: the ports not yet read have no history, "
                 "and the report says so")
      ->type_name("SECONDS")
      ->check(CLI::Range(1L, 86400L))
      ->capture_default_str();
}

}  // namespace ibpm::history
