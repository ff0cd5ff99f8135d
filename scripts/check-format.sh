#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks that every C++ file is formatted as .clang-format says (Debian's clang-format 14), and
# that every source file carries the SPDX license line (scripts/add-spdx.sh --check).
# Usage: scripts/check-format.sh        (lists the files that differ; exit 1 if any)
#        scripts/check-format.sh --fix  (formats them in place)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format not installed (apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
rc=0
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format (scripts/check-format.sh --fix):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  rc=1
else
  echo "check-format: ${#files[@]} files formatted as .clang-format says"
fi
# Every source file starts with its license line (scripts/add-spdx.sh adds it).
scripts/add-spdx.sh --check || rc=1
exit "$rc"
