#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# PMA queries per second through our MAD engine (ibpm-bench-mad: PortCounters of every cabled
# port of the fabric, 5 rounds) at windows 1, 8, 64 and 128, next to perfquery's rate of one
# query per process (1 / the median time of one `perfquery -x LID PORT` run, hyperfine, 30 runs).
#
# The fabric is the one of check_port.sh: a simulated 2-level fat tree of 648 hosts on 36-port
# switches under ibsim (2592 cabled switch and host ports); every command is a client of it, from
# a tmpfs folder. Each window is run 3 times and the median rate is reported (the discovery that
# ibpm-bench-mad does first is not in its rate).
#
# Usage: bench/mad_rate.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built ibpm-bench-mad and ibpm-sim.
#   IBPM_BENCH_OUT  folder for the summary and hyperfine's JSON (default out/bench)
#   WINDOWS         windows to measure (default "1 8 64 128"); ROUNDS (default 5)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
windows=${WINDOWS:-1 8 64 128}
rounds=${ROUNDS:-5}
need_programs hyperfine perfquery:infiniband-diags
need_built ibpm-bench-mad ibpm-sim

tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cd "$tmp"

# Runs a command as a client of the simulation (IBSIM_SOCKNAME, LD_PRELOAD=libumad2sim.so).
client() { ( . "$tmp/sim/env" && exec "$@" ); }

echo "fabric: 2-level fat tree, 648 hosts, 36-port switches"
"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null

# perfquery's peer: one query on the last leaf's port 1 (lines: Switch : GUID ports 36 "leaf36"
# base port 0 lid 130 ...).
switches=$(client ibswitches 2>/dev/null)
leaf=$(sed -n 's/.*"\(leaf[0-9]*\)".*/\1/p' <<<"$switches" | sort | tail -1)
lid=$(sed -n "s/.*\"$leaf\" base port 0 lid \([0-9]*\) .*/\1/p" <<<"$switches")
[[ -n $leaf && -n $lid ]] || { echo "no leaf switch found by ibswitches" >&2; exit 1; }
client perfquery -x "$lid" 1 >/dev/null 2>&1 || { echo "perfquery -x $lid 1 fails" >&2; exit 1; }
client hyperfine -N --warmup 3 --runs 30 --style none --export-json "$out/mad_rate_perfquery.json" \
  "perfquery -x $lid 1" >/dev/null 2>&1
peer_ms=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["results"][0]["median"] * 1000)' \
  "$out/mad_rate_perfquery.json")

{
  printf '%-8s %12s   %s\n' window "queries/s" "(median of 3 runs: the 3 runs; the last run's counts)"
  for w in $windows; do
    rates=()
    for _ in 1 2 3; do
      line=$(client "$bin/ibpm-bench-mad" --window "$w" --rounds "$rounds" 2>/dev/null) ||
        { echo "ibpm-bench-mad --window $w failed: $line" >&2; exit 1; }
      rates+=("$(sed -n 's/.*: \([0-9]*\) queries\/s.*/\1/p' <<<"$line")")
    done
    mapfile -t sorted < <(printf '%s\n' "${rates[@]}" | sort -n)
    printf '%-8s %12s   (%s; %s)\n' "$w" "${sorted[1]}" "${rates[*]}" \
      "$(sed -n 's/.*\(answered [0-9/]*\).*(\(retries.*\))/\1, \2/p' <<<"$line")"
  done
  python3 -c 'import sys; ms = float(sys.argv[1]); print(f"perfquery -x {sys.argv[2]} 1: median {ms:.2f} ms a run -> {1000 / ms:.0f} queries/s (one query per process)")' \
    "$peer_ms" "$lid"
} | tee "$out/mad_rate.txt"
