#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Traffic locality over every subtree: ibpm-locality on the Selene compute dump (666 switches,
# 4341 CAs; ../shared/fixtures/real) and on a generated 3-level fat tree of 10,000 hosts, against
# the same command's own floor, `ibpm-topology --cache` reading the same dump (what any tool pays
# before it can analyse anything). The state directory is empty: the time is topology, levels,
# down-sets, node sets and the locality sums over every set. On a polled fabric each cabled port
# end adds one rrd_fetch (about 35 us here: 0.18 s for the 2592 ports of a 648-host tree).
# Aim: locality for all subtrees under 1 s.
#
# Usage: bench/locality.sh [BUILD_DIR]   (BUILD_DIR defaults to ./build)
#   IBPM_BENCH_RUNS  hyperfine runs per command (default 10)
#   IBPM_BENCH_OUT   folder for hyperfine's JSON (default out/bench)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-10}
fixtures=${IBPM_REAL_FIXTURES:-$here/../../shared/fixtures/real}
need_programs hyperfine
need_built ibpm-locality ibpm-topology ibpm-sim
selene_xz=$fixtures/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz
[[ -f $selene_xz ]] || { echo "no $selene_xz (IBPM_REAL_FIXTURES)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/ibpm-bench-locality.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir state
xz -dc "$selene_xz" > selene.ibnetdiscover
"$bin/ibpm-sim" generate --hosts 10000 --radix 40 --levels 3 --dump fattree10k.ibnetdiscover

printf '%-12s %-44s %10s %8s\n' fabric command "median s" sets
for fabric in selene fattree10k; do
  dump=$tmp/$fabric.ibnetdiscover
  ours="$bin/ibpm-locality --cache $dump --state-dir $tmp/state --format csv"
  floor="$bin/ibpm-topology --cache $dump"
  sets=$($ours | tail -n +2 | wc -l)
  hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out/locality_$fabric.json" \
    -n locality "$ours" -n topology "$floor" > hyperfine.log 2>&1 || { cat hyperfine.log >&2; exit 1; }
  read -r ours_s floor_s < <(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print(r[0]["median"], r[1]["median"])' "$out/locality_$fabric.json")
  printf '%-12s %-44s %10.3f %8s\n' "$fabric" "ibpm-locality (all subtrees)" "$ours_s" "$sets"
  printf '%-12s %-44s %10.3f %8s\n' "$fabric" "ibpm-topology --cache (reading the dump)" "$floor_s" "-"
  python3 -c 'import sys; o, f = map(float, sys.argv[1:]); print(" " * 13 + f"analysis on top of reading: {o - f:.3f} s ({o / f:.1f}x the read)")' "$ours_s" "$floor_s"
done
