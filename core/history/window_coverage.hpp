// SPDX-License-Identifier: MIT
// How much of a window the RRD history covers, so that a report or map says "history for 14 of
// the last 60 min" or "no history in the last 10 min yet" instead of showing zeros as idle.
#pragma once

#include <cstddef>
#include <ctime>
#include <string>

#include "history/port_history.hpp"

namespace ibpm::history {

struct WindowCoverage {
  Window window;
  std::time_t covered = 0;  // seconds with a rate, on the best-covered port
  std::time_t step = 0;     // the RRD step of that port's rows (0: no file read)
  std::size_t ports_read = 0;
  std::size_t ports_with_history = 0;
  // Ports whose history the store could not give (rrdcached silent, a file unreadable), and why
  // the first could not.
  std::size_t ports_unreadable = 0;
  std::string first_unreadable;

  explicit WindowCoverage(const Window& w = {}) : window(w) {}
  void add(const PortHistory& port);
  void add_unreadable(const std::string& reason);
  bool none() const { return ports_with_history == 0; }
  // No history read at all because the store failed: not "nothing swept yet".
  bool unreadable() const { return none() && ports_unreadable > 0; }
};

// "history for 14 min of the last 60 min (RRD step 60 s)", "history for all of the last 60 min",
// "no history in the last 10 min yet (a rate needs two samples one RRD step apart; step 60 s)";
// where the store failed, "no history in the last 60 min could be read: 64 ports failed, the
// first: REASON", or the history read and "; 3 ports could not be read, the first: REASON".
std::string describe_coverage(const WindowCoverage& coverage);

}  // namespace ibpm::history
