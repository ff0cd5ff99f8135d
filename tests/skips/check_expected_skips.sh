#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Guards the allow-list of Skipped tests (tests/expected-skips.txt, read by scripts/check-skips.sh):
# every line's pattern names at least one test CTest knows, and scripts/check-skips.sh lets that
# test's skip pass for the line's run and fails it for the other run. A pattern that names no test
# would let CI fail on the very skip it was written to allow.
# Usage: check_expected_skips.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
allow="$src/tests/expected-skips.txt"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Test names as CTest prints them in its summary ("  Test  #12: NAME").
(cd "$build" && ctest -N) | sed -n 's/^ *Test *#[0-9]*: //p' > "$scratch/names"
[ -s "$scratch/names" ] || { echo "ctest -N listed no tests in $build"; exit 1; }

failures=0
while IFS= read -r line || [ -n "$line" ]; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  kind=${line%% *}
  rest=${line#* }
  regex=${rest% \# *}
  name=$(grep -E -m1 -- "$regex" "$scratch/names" || true)
  if [ -z "$name" ]; then
    echo "expected-skips.txt: no test matches: $regex"
    failures=$((failures + 1))
    continue
  fi
  # A ctest summary in which only that test was skipped.
  printf 'The following tests did not run:\n\t  1 - %s (Skipped)\nEnd\n' "$name" > "$scratch/log"
  runs=(plain sanitize)
  for run in "${runs[@]}"; do
    if scripts_out=$("$src/scripts/check-skips.sh" "$scratch/log" "$run" 2>&1); then verdict=allowed; else verdict=refused; fi
    if [ "$kind" = any ] || [ "$kind" = "$run" ]; then want=allowed; else want=refused; fi
    if [ "$verdict" != "$want" ]; then
      echo "check-skips.sh $run: the skip of '$name' was $verdict, expected $want: $scripts_out"
      failures=$((failures + 1))
    fi
  done
done < "$allow"

[ "$failures" -eq 0 ] || exit 1
echo "expected-skips.txt: every pattern names a test, and check-skips.sh reads each as written"
