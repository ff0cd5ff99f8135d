#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configures a build folder the way scripts/demo.sh and scripts/test.sh share it: RelWithDebInfo
# with the tests (line tables only, see cmake/IbpmBuildSpeed.cmake), with Ninja when it is
# installed (a new folder only: an existing one keeps its generator). So the demo's build is the
# first part of the test suite's, and scripts/test.sh after scripts/demo.sh builds only the rest.
# Usage: scripts/configure.sh BUILD_DIR [cmake arguments, which win over these]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$1
shift
args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DIBPM_BUILD_TESTS=ON)
if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
  args+=(-G Ninja)
fi
cmake -S . -B "$build_dir" "${args[@]}" "$@"
