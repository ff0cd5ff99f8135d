// SPDX-License-Identifier: MIT
// Parses an ibnetdiscover dump RUNS times (default 1) and prints the node/link counts and the
// median wall time of one parse. The file is read from disk on every run, as a loader would.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <vector>

#include "dump/ibnetdiscover_parser.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [RUNS]\n", argv[0]);
    return 2;
  }
  const int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 1;
  std::vector<double> ms;
  try {
    ibpm::dump::ParsedDump dump;
    for (int i = 0; i < runs; ++i) {
      auto start = std::chrono::steady_clock::now();
      dump = ibpm::dump::parse_ibnetdiscover_file(argv[1]);
      auto stop = std::chrono::steady_clock::now();
      ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    }
    std::sort(ms.begin(), ms.end());
    const ibpm::Fabric& f = dump.fabric;
    std::printf("switches %zu cas %zu routers %zu links %zu warnings %zu median_ms %.2f\n",
                f.count(ibpm::NodeType::sw), f.count(ibpm::NodeType::ca),
                f.count(ibpm::NodeType::router), f.links().size(), dump.warnings.size(),
                ms[ms.size() / 2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
