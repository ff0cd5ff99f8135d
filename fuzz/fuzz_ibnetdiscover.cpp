// SPDX-License-Identifier: MIT
// ibnetdiscover dumps: any bytes parse into a fabric or give a DumpError, never anything else.
#include <sstream>
#include <string>

#include "dump/ibnetdiscover_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    ibpm::dump::parse_ibnetdiscover(in, "fuzz");
  } catch (const ibpm::dump::DumpError&) {
  }
  return 0;
}
