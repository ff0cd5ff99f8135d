// SPDX-License-Identifier: MIT

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "topology/topology.hpp"

TEST_CASE("a text file that is no dump is refused with its path") {
  const auto path = std::filesystem::temp_directory_path() /
                    ("ibpm-not-a-dump-" + std::to_string(::getpid()) + ".txt");
  {
    std::ofstream out(path);
    out << "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n";
  }
  CHECK_THROWS_WITH(
      ibpm::topology::load_topology_file(path.string()),
      Catch::StartsWith(path.string() + ": ") && Catch::Contains("no InfiniBand nodes"));
  std::filesystem::remove(path);
}
