#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Health map rendering: ibpm-map drawing a folded SVG (hosts folded per switch, parallel cables per
# pair; no counter history, so the time is the layout and rendering) against Graphviz's own
# `dot -Tsvg` on the plain one-node-per-device DOT of the same fabric (written by
# `ibpm-map --fold none -o FILE.dot`: every device and cable, the same attributes, no layout).
#   fabrics  the Selene compute dump (666 switches, 4341 CAs; ../shared/fixtures/real) and a
#            generated 3-level fat tree of 10,000 hosts (ibpm-sim generate --dump)
#   timing   hyperfine, medians of IBPM_BENCH_RUNS runs (default 5, 1 warm-up); `dot` on the
#            unfolded fabric can take very long: it runs once under `timeout IBPM_BENCH_DOT_CAP`
#            seconds (default 300) and is reported as ">N s" when it does not finish
# Aim: the folded map under 30 s.
#
# Usage: bench/map.sh [BUILD_DIR]   (BUILD_DIR defaults to ./build; needs ibpm-map and ibpm-sim)
#   IBPM_BENCH_OUT   folder for hyperfine's JSON and the summary (default out/bench)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-5}
cap=${IBPM_BENCH_DOT_CAP:-300}
fixtures=${IBPM_REAL_FIXTURES:-$here/../../shared/fixtures/real}
need_programs hyperfine dot:graphviz
need_built ibpm-map ibpm-sim
selene_xz=$fixtures/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz
[[ -f $selene_xz ]] || { echo "no $selene_xz (IBPM_REAL_FIXTURES)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/ibpm-bench-map.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
xz -dc "$selene_xz" > selene.ibnetdiscover
"$bin/ibpm-sim" generate --hosts 10000 --radix 40 --levels 3 --dump fattree10k.ibnetdiscover

: > rows.tsv  # fabric, command, median s (or >cap), nodes/edges drawn
for fabric in selene fattree10k; do
  dump=$tmp/$fabric.ibnetdiscover
  ours="$bin/ibpm-map --cache $dump --no-history --fold hosts -o $tmp/$fabric.svg"
  drawn=$($ours -v | sed -n 's/^wrote [^:]*: //p')
  "$bin/ibpm-map" --cache "$dump" --no-history --fold none -o "$tmp/$fabric.dot"
  echo "$fabric: folded map $drawn; plain DOT $(grep -c -- ' -> ' "$fabric.dot") edges"
  hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out/map_$fabric.json" \
    -n "ibpm-map folded SVG" "$ours" > hyperfine.log 2>&1 || { cat hyperfine.log >&2; exit 1; }
  ours_s=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' \
             "$out/map_$fabric.json")
  printf '%s\t%s\t%s\n' "$fabric" "ibpm-map --fold hosts -o map.svg" "$ours_s" >> rows.tsv
  # The peer, once, under the cap.
  start=$(date +%s.%N)
  if timeout "$cap" dot -Tsvg "$tmp/$fabric.dot" -o "$tmp/$fabric.dot.svg" 2> dot.err; then
    peer_s=$(echo "$(date +%s.%N) - $start" | bc)
  else
    peer_s=">$cap"
  fi
  printf '%s\t%s\t%s\n' "$fabric" "dot -Tsvg (one node per device, run once)" "$peer_s" >> rows.tsv
done

python3 - rows.tsv "$runs" <<'PY' | tee "$out/map.txt"
import sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
print(f"{'fabric':11} {'command':44} {'seconds':>9} {'dot / ours':>11}")
ours = {}
for fabric, command, secs in rows:
    if command.startswith("ibpm-map"):
        ours[fabric] = float(secs)
        print(f"{fabric:11} {command:44} {float(secs):9.2f} {'':>11}")
    else:
        ratio = f">{float(secs[1:]) / ours[fabric]:.0f}x" if secs.startswith(">") else \
                f"{float(secs) / ours[fabric]:.1f}x"
        shown = secs + " s" if secs.startswith(">") else f"{float(secs):9.2f}"
        print(f"{fabric:11} {command:44} {shown:>9} {ratio:>11}")
print(f"  ibpm-map: median of {sys.argv[2]} runs (hyperfine, 1 warm-up); aim: under 30 s")
PY
