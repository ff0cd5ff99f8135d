// SPDX-License-Identifier: MIT
// A test case that cannot run on this machine (no simulator, daemon or fixture) says why and
// returns. CTest matches the "SKIPPED: " it prints and reports the case Skipped, never Passed (see
// ibpm_discover_tests in tests/CMakeLists.txt): Catch2 v2 has no skip of its own.
#pragma once

#include <catch2/catch.hpp>

// Says that the case did not run, without leaving the current function.
#define IBPM_SKIP_MESSAGE(why) WARN("SKIPPED: " << why)

// Leaves the test case (use it in the TEST_CASE's own body) as Skipped.
#define IBPM_SKIP(why)      \
  do {                      \
    IBPM_SKIP_MESSAGE(why); \
    return;                 \
  } while (0)
