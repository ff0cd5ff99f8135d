// SPDX-License-Identifier: MIT
// `ibnetdiscover -p` reports: any bytes parse or give a DumpError.
#include <sstream>
#include <string>

#include "dump/ports_report_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    ibpm::dump::parse_ports_report(in, "fuzz");
  } catch (const ibpm::dump::DumpError&) {
  }
  return 0;
}
