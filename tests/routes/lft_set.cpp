// SPDX-License-Identifier: MIT
// lft_set: writes one block of a switch's linear forwarding table with an SMP Set, as a subnet
// manager would (ibsim takes LFT sets from any client). test_routes_live runs it as a client of
// ibsim to pile a leaf's routes onto one up-port.
//
//   lft_set LID BLOCK PORTS     PORTS: 64 egress ports as 128 hex digits (ff: no route)
//
// Prints "set" and exits 0 when the switch accepted the block, else the reason and exits 1.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "mad/mad_engine.hpp"
#include "mad/smp.hpp"

int main(int argc, char** argv) {
  using namespace ibpm::mad;
  if (argc != 4 || std::string(argv[3]).size() != 2 * kLftBlockSize) {
    std::fprintf(stderr, "usage: lft_set LID BLOCK PORTS(128 hex digits)\n");
    return 2;
  }
  MadQuery query = lft_block_query(static_cast<unsigned>(std::atoi(argv[1])),
                                   static_cast<unsigned>(std::atoi(argv[2])));
  query.method = MadMethod::set;
  const std::string hex = argv[3];
  for (std::size_t i = 0; i < kLftBlockSize; ++i)
    query.data[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  try {
    UmadPort port("", 0);
    MadEngine engine(port);
    const auto replies = engine.run({query}, EngineOptions{});
    if (!replies.at(0).ok()) {
      std::printf("failed: %s\n", describe_failure(replies[0]).c_str());
      return 1;
    }
  } catch (const std::exception& e) {
    std::printf("failed: %s\n", e.what());
    return 1;
  }
  std::printf("set\n");
  return 0;
}
