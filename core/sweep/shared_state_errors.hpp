// SPDX-License-Identifier: MIT
// A store that is down or misconfigured fails every port the same way: said once, with the count
// of ports it costs, instead of once per port ("32 ports: state file: rrdcached at HOST:PORT may
// not make the ports' folders ...: start it with -R").
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sweep/sweep_report.hpp"

namespace ibpm::sweep {

struct SharedStateError {
  std::string cause;  // the state error without the file it was about
  std::vector<const PortVerdict*> ports;
  std::vector<std::string> files;  // the files the errors named, in the ports' order

  // "144 ports: state file: last update 3600 s ahead of the clock (FILE, FILE and 142 more)",
  // at most `named` files named.
  std::string text(std::size_t named) const;
};

// A port's state error split into the file it names first and the cause
// ("0x.../port1.rrd: cannot connect" -> {"0x.../port1.rrd", "cannot connect"}); no file: "".
std::pair<std::string, std::string> split_state_error(const std::string& error);

// Takes out of `bad` (kept in order) the ports whose state error has the same cause as at least
// one other's, grouped by cause, the largest group first.
std::vector<SharedStateError> take_shared_state_errors(std::vector<const PortVerdict*>& bad);

}  // namespace ibpm::sweep
