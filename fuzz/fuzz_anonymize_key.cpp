// SPDX-License-Identifier: MIT
// ibpm-anonymize keys: any bytes give a key or a std::runtime_error naming the line.
#include <stdexcept>
#include <string_view>

#include "anonymize_key.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  try {
    ibpm::tools::parse_key(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz");
  } catch (const std::runtime_error&) {
  }
  return 0;
}
