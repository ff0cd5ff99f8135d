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

}  // namespace ibpm::state
