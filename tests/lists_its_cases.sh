#!/bin/sh
# SPDX-License-Identifier: MIT
# A test executable lists its cases (catch_discover_tests registers none of one that cannot, and
# says nothing): it must list at least one, say nothing on stderr (a sanitizer's report, a crash
# at start) and exit as Catch2 does after a listing, with the number of cases listed (255 at most).
# Usage: tests/lists_its_cases.sh EXECUTABLE
set -u
exe=$1
err=$(mktemp)
trap 'rm -f "$err"' EXIT
cases=$("$exe" --list-test-names-only 2>"$err" | grep -c .)
listed=$("$exe" --list-test-names-only 2>/dev/null >/dev/null; echo $?)
if [ -s "$err" ]; then
  echo "$exe: said on stderr while listing its cases:" >&2
  head -20 "$err" >&2
  exit 1
fi
expected=$((cases < 255 ? cases : 255))
if [ "$cases" -eq 0 ] || [ "$listed" -ne "$expected" ]; then
  echo "$exe: listed $cases cases and exited $listed (expected $expected)" >&2
  exit 1
fi
echo "$exe: $cases cases"
