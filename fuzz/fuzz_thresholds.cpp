// SPDX-License-Identifier: MIT
// Thresholds files (and through them every range and rate unit): thresholds or a
// std::runtime_error naming the line, over the defaults as the checks load them.
#include <sstream>
#include <stdexcept>
#include <string>

#include "thresholds/rate_thresholds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  ibpm::thresholds::RateThresholds thresholds = ibpm::thresholds::RateThresholds::defaults();
  try {
    thresholds.load_stream(in, "fuzz");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
