# SPDX-License-Identifier: MIT
# Shared by the package tests: steps with their time, failures that stop the run, and the exit
# code 77 (CTest's and automake's "skipped") when a tool the test needs is missing.
step_start=$SECONDS
step() { echo "==> $* (at $((SECONDS - step_start)) s)"; }
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }
need() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (scripts/install-deps.sh)"
  done
}
