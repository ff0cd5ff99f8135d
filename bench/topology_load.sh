#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reading the largest real topology (NVIDIA Selene compute: 666 switches, 4341 CAs, 2.8 MB of
# ibnetdiscover text) against the infiniband-diags peer that reads the same fabric from its
# libibnetdisc cache file: `ibnetdiscover --load-cache`.
#
# The cache file is made the honest way: the dump is written as an ibsim net file, simulated,
# swept by OpenSM and discovered by `ibnetdiscover --cache`, so both sides read the same fabric.
# Whole processes are timed with hyperfine (median of 20 runs, 3 warm-ups each).
#
# Usage: bench/topology_load.sh [BUILD_DIR]
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
fixtures=${IBPM_REAL_FIXTURES:-$here/../../shared/fixtures/real}
need_programs hyperfine
need_built ibpm-bench-parse ibpm-topology ibpm-sim

tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cd "$tmp"
xz -dc "$fixtures/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz" > selene.ibnetdiscover

echo "making the cache file: simulate the dump, discover it with ibnetdiscover --cache"
"$bin/ibpm-topology" --cache selene.ibnetdiscover --write-net selene.net >/dev/null
"$bin/ibpm-sim" start selene.net --dir "$tmp/sim" >/dev/null
"$bin/ibpm-sim" exec --dir "$tmp/sim" -- ibnetdiscover --cache "$tmp/selene.cache" >/dev/null 2>&1
"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null

hyperfine --warmup 3 --runs 20 --export-json results.json --style basic \
  -n "ibpm parse of the text dump (ibpm-bench-parse)" "$bin/ibpm-bench-parse selene.ibnetdiscover" \
  -n "ibnetdiscover --load-cache (peer)" "ibnetdiscover --load-cache selene.cache" \
  -n "ibpm-topology --cache text dump" "$bin/ibpm-topology --cache selene.ibnetdiscover" \
  -n "ibpm-topology --cache cache file" "$bin/ibpm-topology --cache selene.cache" \
  >/dev/null

python3 - results.json <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
peer = next(r for r in results if "peer" in r["command"])
print(f"{'command':52} {'median ms':>10} {'vs peer':>8}")
for r in results:
    print(f"{r['command']:52} {r['median']*1000:10.1f} {r['median']/peer['median']:8.2f}")
PY
