// A store that is down or misconfigured fails every port the same way: said once, with the count
// of ports it costs, instead of once per port ("32 ports: state file: rrdcached at HOST:PORT may
// not make the ports' folders ...: start it with -R").
#pragma once

#include <string>
#include <vector>

#include "sweep/sweep_report.hpp"

namespace ibpm::sweep {

struct SharedStateError {
  std::string cause;  // the state error without the file it was about
  std::vector<const PortVerdict*> ports;
};

// The state error of a port without the file it names first ("0x.../port1.rrd: cannot connect"
// -> "cannot connect").
std::string state_error_cause(const std::string& error);

// Takes out of `bad` (kept in order) the ports whose state error has the same cause as at least
// one other's, grouped by cause, the largest group first.
std::vector<SharedStateError> take_shared_state_errors(std::vector<const PortVerdict*>& bad);

}  // namespace ibpm::sweep
