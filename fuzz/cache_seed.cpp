// SPDX-License-Identifier: MIT
// fuzz_cache_seed DIR: writes DIR/small.cache, the seed of fuzz_ibnd_cache.
#include <fstream>
#include <iostream>

#include "support/ibnd_cache_bytes.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: fuzz_cache_seed DIR\n";
    return 2;
  }
  const auto bytes = ibpm::test::small_ibnd_cache();
  std::ofstream out(std::string(argv[1]) + "/small.cache", std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  return out ? 0 : 1;
}
