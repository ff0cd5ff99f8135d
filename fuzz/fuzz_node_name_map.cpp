// SPDX-License-Identifier: MIT
// node-name-maps: any bytes give a map or a std::runtime_error naming the line.
#include <sstream>
#include <stdexcept>
#include <string>

#include "fabric/node_name_map.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    ibpm::NodeNameMap::parse(in, "fuzz");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
