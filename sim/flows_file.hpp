// SPDX-License-Identifier: MIT
// Flows files: the steady host-to-host traffic `ibpm-sim traffic` puts on a simulated fabric.
// One flow per line, `FROM TO RATE`:
//
//   # job A: a ring inside leaf01
//   cn0001 cn0002 2GB/s
//   cn0002 cn0001 1.5 GB/s      # the unit may stand apart from the number
//   cn0003 cn0040 800M          # octets per second: 800,000,000
//
// FROM and TO are hosts (CA node names of the net file). RATE is octets per second: a number
// with an optional decimal (k or K, M, G, T: powers of 1000) or binary (Ki, Mi, Gi, Ti: powers
// of 1024) prefix, an optional B and an optional /s: 125000, 800M, 500MB/s, 1.5GB/s, 2GiB/s.
// Bits are not taken ("Gb/s" is refused, not guessed). `#` starts a comment; blank lines are
// ignored; a pair given twice sends both rates.
#pragma once

#include <filesystem>
#include <istream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "sim/net_topology.hpp"
#include "sim/traffic.hpp"

namespace ibpm::sim {

// A malformed flows file; what() is "FILE:LINE: reason".
class FlowsFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Octets per second; nullopt when malformed or negative.
std::optional<double> parse_rate(std::string_view text);

// The flows of a flows file read from `in` (`name` is the file name errors start with), each
// host checked against the topology. Throws FlowsFileError for a line that is not FROM TO RATE,
// a bad rate, an unknown host (or a switch), or a flow from a host to itself.
std::vector<Flow> parse_flows(std::istream& in, const std::string& name,
                              const NetTopology& topology);

// The same for a file; FlowsFileError when it cannot be read.
std::vector<Flow> read_flows_file(const std::filesystem::path& path, const NetTopology& topology);

}  // namespace ibpm::sim
