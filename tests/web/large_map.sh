#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard on a large fabric (a 3-level fat tree of 3,456 hosts, topology alone): ibpm-web
# folds its map by pods and writes the drill-down maps in maps/; large_map.py checks it in
# headless Chromium at 1400x900. Exit 77 (skipped) without Chromium or python3.
# Usage: large_map.sh BIN_DIR
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v chromium >/dev/null || { echo "chromium is not installed: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin/ibpm-sim" generate --hosts 3456 --radix 24 --levels 3 --dump "$tmp/fabric.ibnetdiscover" >/dev/null
"$bin/ibpm-web" --cache "$tmp/fabric.ibnetdiscover" --no-history --graphs none -o "$tmp/site" -v
ls "$tmp/site"/maps/pod-0x*.svg >/dev/null 2>&1 || fail "no pod maps in the site"
artifacts=${IBPM_TEST_ARTIFACTS:-$bin/../test-artifacts/web}
mkdir -p "$artifacts"
python3 "$here/large_map.py" "$tmp/site" --artifacts "$artifacts"
