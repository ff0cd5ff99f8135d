// SPDX-License-Identifier: MIT
// The DOT ibpm-map draws of a small generated fat tree (8 hosts, radix 4), topology only: no
// history, so nothing in it depends on the time.
#include <catch2/catch.hpp>

#include "support/golden.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/text_files.hpp"

using namespace ibpm::test;

TEST_CASE("golden: the DOT of a small fat tree's map") {
  const TempDir dir("golden-map");
  const std::string dump = dir / "fabric.ibnetdiscover";
  const ProcessRun generated =
      run_process({bin("ibpm-sim"), "generate", "--hosts", "8", "--radix", "4", "--dump", dump});
  INFO(generated.out << generated.err);
  REQUIRE(generated.exit_code == 0);

  const std::string dot = dir / "map.dot";
  const ProcessRun map =
      run_process({bin("ibpm-map"), "--cache", dump, "--no-history", "--fold", "none", "-o", dot});
  INFO(map.out << map.err);
  REQUIRE(map.exit_code == 0);
  check_golden("map-small.dot", read_text(dot));
}
