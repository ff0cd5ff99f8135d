// SPDX-License-Identifier: MIT
// What every text-dump parser returns, and the error it throws for input it cannot read.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm::dump {

struct ParsedDump {
  Fabric fabric;
  // "origin:LINE: message" for everything that was skipped, repaired or guessed.
  std::vector<std::string> warnings;
  // The warnings that mean nodes or cables may be missing or merged (a GUID twice, GUID 0, a
  // cable listed by one end only, a node with no record of its own): checks report these at
  // WARNING, not only with -v.
  std::vector<std::string> incomplete;
};

// Input that has the shape of a record but cannot be read. The message is "origin:LINE: reason".
class DumpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ibpm::dump
