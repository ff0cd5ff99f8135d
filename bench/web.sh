#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard: ibpm-web writing the whole site from the demo's history (288 hosts, 576 cables,
# 1152 polled ports: pages, map and every RRD graph) against the way a cron script would draw
# the same cable profiles, one `rrdtool graph` per cable (same window, both directions of the
# cable read from its lower end's file, same size). And the topology-only site of the Selene
# compute dump (666 switches, 4341 CAs, no history) against `ibpm-map` drawing its map alone.
#   timing   hyperfine, medians of IBPM_BENCH_RUNS runs (default 3, 1 warm-up)
#
# Usage: bench/web.sh [BUILD_DIR] [DEMO_DIR]   (defaults ./build and out/demo: run
#        scripts/demo.sh first; needs ibpm-web, ibpm-map and rrdtool)
#   IBPM_BENCH_OUT   folder for hyperfine's JSON (default out/bench)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
demo=$(cd "${2:-$here/../out/demo}" && pwd)
runs=${IBPM_BENCH_RUNS:-3}
fixtures=${IBPM_REAL_FIXTURES:-$here/../../shared/fixtures/real}
need_programs hyperfine rrdtool
need_built ibpm-web ibpm-map
[[ -d $demo/state && -f $demo/fabric.ibnetdiscover ]] || { echo "no demo in $demo: run scripts/demo.sh" >&2; exit 1; }
selene_xz=$fixtures/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz
[[ -f $selene_xz ]] || { echo "no $selene_xz (IBPM_REAL_FIXTURES)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/ibpm-bench-web.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
xz -dc "$selene_xz" > selene.ibnetdiscover

# The window: from the state's oldest file to now, so both sides read the same rows.
window=$(( $(date +%s) - $(stat -c %Y "$demo/state/baseline.cache") + 60 ))
web="$bin/ibpm-web --cache $demo/fabric.ibnetdiscover --state-dir $demo/state --window $window -o $tmp/site"
$web -v
# The peer: one rrdtool process per cable profile ibpm-web drew (graphs/link-0xGUID-PORT.png).
for graph in site/graphs/link-*.png; do
  stem=${graph##*/link-}; stem=${stem%.png}
  file=$demo/state/${stem%-*}/port${stem##*-}.rrd
  echo "rrdtool graph $tmp/peer-$stem.png --start -$window --end now --width 560 --height 140" \
       "--title $stem --vertical-label '% of capacity' --lower-limit 0 --upper-limit 100 --slope-mode" \
       "DEF:x=$file:xmit_data:AVERAGE DEF:r=$file:rcv_data:AVERAGE" \
       "CDEF:xp=x,4,*,25000000000,/,100,* CDEF:rp=r,4,*,25000000000,/,100,*" \
       "AREA:xp#4e9a0680:sent LINE2:rp#204a87:received >/dev/null"
done > peer.sh
cables=$(wc -l < peer.sh)
hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out/web_demo.json" \
  -n ibpm-web "$web" -n "rrdtool graph x $cables" "bash $tmp/peer.sh" > hyperfine.log 2>&1 ||
  { cat hyperfine.log >&2; exit 1; }

selene_web="$bin/ibpm-web --cache selene.ibnetdiscover --state-dir $tmp/none -o $tmp/selene-site"
selene_map="$bin/ibpm-map --cache selene.ibnetdiscover --state-dir $tmp/none -o $tmp/selene.svg"
$selene_web -v
hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out/web_selene.json" \
  -n ibpm-web "$selene_web" -n ibpm-map "$selene_map" > hyperfine.log 2>&1 ||
  { cat hyperfine.log >&2; exit 1; }

python3 - "$out/web_demo.json" "$out/web_selene.json" "$cables" <<'PY'
import json, sys
demo = json.load(open(sys.argv[1]))["results"]
selene = json.load(open(sys.argv[2]))["results"]
print(f"{'fabric':<10} {'command':<48} {'median s':>9}")
print(f"{'demo':<10} {'ibpm-web (whole site, history, all graphs)':<48} {demo[0]['median']:9.2f}")
print(f"{'demo':<10} {'rrdtool graph per cable (' + sys.argv[3] + ' profiles only)':<48} {demo[1]['median']:9.2f}")
print(f"{'':<10} ratio: the whole site in {demo[0]['median'] / demo[1]['median']:.2f}x the peer's time for its graphs alone")
print(f"{'selene':<10} {'ibpm-web (topology only)':<48} {selene[0]['median']:9.2f}")
print(f"{'selene':<10} {'ibpm-map (its map alone)':<48} {selene[1]['median']:9.2f}")
print(f"{'':<10} ratio: the whole site in {selene[0]['median'] / selene[1]['median']:.2f}x the map's time")
PY
