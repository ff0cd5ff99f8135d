// SPDX-License-Identifier: MIT

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

// The maps the tests write (ibpm-web's site, DrawProcess) are drawn by the ibpm-draw of this
// build: the test executables live in tests/, not beside it in bin/.
int main(int argc, char* argv[]) {
  setenv("IBPM_DRAW", IBPM_TEST_DRAW, 0);
  return Catch::Session().run(argc, argv);
}
