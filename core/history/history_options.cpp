#include "history/history_options.hpp"

#include <CLI/CLI.hpp>

namespace ibpm::history {

void add_history_options(CLI::App& app, HistoryOptions& options) {
  app.add_option("--window", options.window, "Seconds of history to analyse, up to now")
      ->check(CLI::Range(1L, 400L * 86400))
      ->capture_default_str();
  app.add_option("--rrdcached", options.rrdcached,
                 "rrdcached address: flush each file before reading it");
}

}  // namespace ibpm::history
