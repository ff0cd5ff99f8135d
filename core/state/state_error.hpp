// SPDX-License-Identifier: MIT
// Every failure to read or write a port's state names the file or directory it concerns:
// what() is "PATH: reason".
#pragma once

#include <stdexcept>

namespace ibpm::state {

class StateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The store refuses what every port needs (an rrdcached that may not make the ports' folders):
// no use trying the other ports, and one message for all of them, with the fix.
class StoreMisconfigured : public StateError {
 public:
  using StateError::StateError;
};

}  // namespace ibpm::state
