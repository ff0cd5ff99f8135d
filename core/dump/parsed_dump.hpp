// What every text-dump parser returns, and the error it throws for input it cannot read.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"

namespace ibpm {

struct ParsedDump {
  Fabric fabric;
  // "origin:LINE: message" for everything that was skipped, repaired or guessed.
  std::vector<std::string> warnings;
};

// Input that has the shape of a record but cannot be read. The message is "origin:LINE: reason".
class DumpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ibpm
