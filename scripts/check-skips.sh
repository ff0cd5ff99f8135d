#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reads a ctest log and lists the tests it reports Skipped that tests/expected-skips.txt does not
# allow for this run; exits 1 when there are any. Usage: scripts/check-skips.sh LOG RUN
# (RUN: plain or sanitize, matched against the allow-list's first column; "any" matches both).
set -euo pipefail
log=$1 run=$2
allow="$(dirname "$0")/../tests/expected-skips.txt"

# CTest's summary: "The following tests did not run:" then one "  27 - NAME (Skipped)" per test.
skipped() {
  sed -n '/^The following tests did not run:/,/^[^[:space:]]/s/^[[:space:]]*[0-9][0-9]* - \(.*\) (Skipped)$/\1/p' "$log"
}

# Whether NAME matches an allow-list line "RUN REGEX # REASON" for this run.
allowed() {
  local name=$1 line kind rest regex
  while IFS= read -r line || [ -n "$line" ]; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    kind=${line%% *}
    rest=${line#* }
    regex=${rest% \# *}
    [[ "$kind" == any || "$kind" == "$run" ]] || continue
    [[ "$name" =~ $regex ]] && return 0
  done < "$allow"
  return 1
}

unexpected=()
while IFS= read -r name; do
  [ -n "$name" ] || continue
  allowed "$name" || unexpected+=("$name")
done < <(skipped)

if [ ${#unexpected[@]} -gt 0 ]; then
  echo "Skipped, but expected to run (see tests/expected-skips.txt):"
  printf '  %s\n' "${unexpected[@]}"
  exit 1
fi
