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
#
# With IBPM_BENCH_HOSTS, instead: the history of a generated three-level radix-36 tree of that
# many hosts (3888: 23,328 ports; 11664: 69,984), 20 minutes of samples of every cabled port and
# the per-subtree aggregates of IBPM_BENCH_SHARDS sweep scopes (default 2) written by
# ibpm-bench-aggregates on the disk (with what a sweep's aggregates cost it), then ibpm-locality
# over the last 15 minutes through the aggregates and with --per-port (every port's file), from
# the files and through a local rrdcached, in the same runs, and the largest difference between
# their sums. With IBPM_BENCH_WEB=1 also `ibpm-web --graphs none` over the same history (the
# dashboard: every port's file, the folded map drawn), through the daemon and from the files.
#
# Usage: bench/locality.sh [BUILD_DIR]   (BUILD_DIR defaults to ./build)
#   IBPM_BENCH_RUNS   hyperfine runs per command (default 10; 3 with IBPM_BENCH_HOSTS)
#   IBPM_BENCH_OUT    folder for hyperfine's JSON (default out/bench)
#   IBPM_BENCH_HOSTS  hosts of the generated tree whose history is read (see above)
#   IBPM_BENCH_SHARDS sweep scopes of its aggregates (default 2)
#   IBPM_BENCH_WEB    1: ibpm-web --graphs none too, with IBPM_BENCH_HOSTS
#   IBPM_BENCH_STATE  parent of its state (default /var/tmp: a disk)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
if [[ -n ${IBPM_BENCH_HOSTS:-} ]]; then
  runs=${IBPM_BENCH_RUNS:-3}
  need_programs hyperfine python3
  need_built ibpm-locality ibpm-bench-aggregates
  state=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-locality-history.XXXXXX")
  trap 'rm -rf "$state"' EXIT
  echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), state on $(df --output=source "$state" | tail -1)"
  /usr/bin/time -f "history written in %e s" "$bin/ibpm-bench-aggregates" --hosts "$IBPM_BENCH_HOSTS" \
    --shards "${IBPM_BENCH_SHARDS:-2}" --minutes 20 --state-dir "$state/state" --dump "$state/fabric.ibnetdiscover"
  echo "state: $(du -sh "$state/state" | cut -f1), aggregates $(du -sh "$state/state/aggregates" | cut -f1)"
  history="$bin/ibpm-locality --cache $state/fabric.ibnetdiscover --state-dir $state/state --window 900"
  $history | sed -n 2p
  $history --per-port | sed -n 2p
  $history --format csv > "$state/aggregates.csv"
  $history --format csv --per-port > "$state/per-port.csv"
  # The same through a local rrdcached over the state (as packaging/systemd runs it), nothing
  # pending: each file's FLUSH before it is read.
  need_programs rrdcached
  trap 'stop_rrdcached; rm -rf "$state"' EXIT
  mkdir "$state/journal"
  start_rrdcached "$state/rrdcached.sock" -l "unix:$state/rrdcached.sock" -B -b "$state/state" \
    -j "$state/journal" -w 300 -z 60 -f 3600 -p "$state/rrdcached.pid"
  daemon="--rrdcached unix:$state/rrdcached.sock"
  hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out/locality_history.json" \
    -n aggregates "$history --format csv" -n per-port "$history --format csv --per-port" \
    -n "aggregates, rrdcached" "$history --format csv $daemon" \
    -n "per-port, rrdcached" "$history --format csv --per-port $daemon" \
    > "$state/hyperfine.log" 2>&1 || { cat "$state/hyperfine.log" >&2; exit 1; }
  python3 - "$out/locality_history.json" "$state/aggregates.csv" "$state/per-port.csv" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))["results"]
for x in r:
    print(f"ibpm-locality, {x['command']:<22} median {x['median']:.3f} s, runs " + ", ".join(f"{t:.3f}" for t in x["times"]))
print(f"per-port / aggregates: {r[1]['median'] / r[0]['median']:.1f}x from the files, "
      f"{r[3]['median'] / r[2]['median']:.1f}x through rrdcached")
a = {row["set"]: row for row in csv.DictReader(open(sys.argv[2]))}
p = {row["set"]: row for row in csv.DictReader(open(sys.argv[3]))}
worst = 0.0
for name, row in p.items():
    for column in ("gen_octets_s", "con_octets_s", "out_octets_s", "in_octets_s"):
        x, y = float(a[name][column]), float(row[column])
        worst = max(worst, abs(x - y) / max(abs(y), 1.0))
print(f"{len(p)} sets, largest relative difference of their sums: {worst:.2e}")
PY
  if [[ ${IBPM_BENCH_WEB:-} == 1 ]]; then
    need_built ibpm-web ibpm-draw
    web="$bin/ibpm-web --cache $state/fabric.ibnetdiscover --state-dir $state/state --window 900 --graphs none -o $state/site"
    hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out/web_history.json" \
      -n "ibpm-web --graphs none, rrdcached" "$web $daemon" -n "ibpm-web --graphs none, files" "$web" \
      > "$state/hyperfine-web.log" 2>&1 || { cat "$state/hyperfine-web.log" >&2; exit 1; }
    python3 - "$out/web_history.json" <<'PY'
import json, sys
for x in json.load(open(sys.argv[1]))["results"]:
    print(f"{x['command']:<34} median {x['median']:.3f} s, runs " + ", ".join(f"{t:.3f}" for t in x["times"]))
PY
  fi
  exit 0
fi
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
