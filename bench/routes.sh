#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ibpm-routes against the infiniband-diags peer: reading every switch's linear forwarding table
# (ibpm-routes --refresh with the topology given, all switches in parallel through the MAD
# engine) against `ibroute -n LID` looped over the switches (one process and one table per switch;
# -n: no NodeInfo/NodeDescription query per destination, the tables alone; plain ibroute, which
# names every destination, is timed too on fabrics of up to 100 switches),
# and ibpm-routes --cable on a spine cable (from the tables on file, no MAD).
#
# Fabrics, each simulated under ibsim and routed by one OpenSM sweep; every command is a client
# of it, from a tmpfs folder (libumad2sim builds its fake sysfs in the current directory):
#   (1) a 2-level fat tree of 648 hosts on 36-port switches (36 leaves, 18 spines)
#   (2) the Selene compute dump (666 switches, 4,341 CAs) when ../shared/fixtures/real has it
# Whole commands are timed IBPM_BENCH_RUNS times (default 3, after one warm-up); medians.
#
# Usage: bench/routes.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built ibpm-routes, ibpm-sim and ibpm-topology.
#   IBPM_BENCH_OUT   folder for the summary (default out/bench)
#   IBPM_BENCH_RUNS  timed runs per command (default 3)
#   IBPM_BENCH_STATE parent of the state directory (default /var/tmp: a disk, as on a server)
#   IBPM_BENCH_SKIP_SELENE=1  only the 648-host tree
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-3}
need_programs ibroute:infiniband-diags ibswitches:infiniband-diags xz:xz-utils
need_built ibpm-routes ibpm-sim ibpm-topology
selene_xz=$here/../../shared/fixtures/real/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz

tmp=$(mktemp -d /dev/shm/ibpm-bench-routes.XXXXXX)
disk=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-bench-routes-state.XXXXXX")
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp" "$disk"' EXIT
cd "$tmp"
client() { ( . "$tmp/sim/env" && exec "$@" ); }

# The median wall time of a command in ms over $runs runs, after one warm-up run.
median_ms() {
  local times=() start end i
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
  for ((i = 0; i < runs; i++)); do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(((end - start) / 1000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1000}'
}

# bench ID NAME NETFILE: starts the simulation, times both readers and --cable, prints one block.
bench() {
  local name=$2 net=$3 state=$disk/state-$1
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  "$bin/ibpm-sim" start "$net" --dir "$tmp/sim" --replace >/dev/null
  # The topology once (a discovery); the timed refreshes read it from the file.
  client "$bin/ibpm-routes" --state-dir "$state" --refresh >/dev/null 2>&1
  local topo=$state/topology.ibnetdiscover
  mapfile -t lids < <(client ibswitches 2>/dev/null | sed -n 's/.* base port 0 lid \([0-9]*\) .*/\1/p')
  local spine
  spine=$(client ibswitches 2>/dev/null | sed -n 's/.*"\([^"]*\)" base port 0 lid .*/\1/p' | sort | tail -1)
  local said
  said=$(client "$bin/ibpm-routes" --state-dir "$state" --cache "$topo" --refresh 2>&1 | tail -1)
  printf '%s: %s switches\n  ibpm-routes itself: %s\n' "$name" "${#lids[@]}" "$said"
  ours=$(median_ms client "$bin/ibpm-routes" --state-dir "$state" --cache "$topo" --refresh)
  peer=$(median_ms client sh -c "for l in ${lids[*]}; do ibroute -n \$l; done")
  # Plain ibroute asks every destination's NodeInfo: minutes per run on thousands of LIDs.
  named="(skipped)"
  ((${#lids[@]} > 100)) || named=$(median_ms client sh -c "for l in ${lids[*]}; do ibroute \$l; done")
  cable=$(median_ms "$bin/ibpm-routes" --state-dir "$state" --cache "$topo" --cable "$spine[1]")
  cable_pairs=$("$bin/ibpm-routes" --state-dir "$state" --cache "$topo" --cable "$spine[1]" | sed -n 1p)
  printf '  %-46s %10s ms\n' "ibpm-routes --refresh (all LFTs, topology on file)" "$ours" \
    "ibroute -n looped over ${#lids[@]} switches (peer)" "$peer" \
    "ibroute (destinations named) looped over them" "$named" "ibpm-routes --cable $spine[1]" "$cable"
  awk -v a="$ours" -v b="$peer" 'BEGIN {printf "  LFT read: peer/ours = %.1fx\n", b / a}'
  printf '  --cable %s[1]: %s\n\n' "$spine" "$cable_pairs"
}

{
  echo "median of $runs runs after one warm-up; $(nproc) CPUs"
  "$bin/ibpm-sim" generate --hosts 648 --radix 36 -o tree648.net >/dev/null
  bench tree648 "fat tree, 648 hosts" tree648.net
  if [[ -f $selene_xz && -z ${IBPM_BENCH_SKIP_SELENE:-} ]]; then
    xz -dc "$selene_xz" >selene.ibnetdiscover
    "$bin/ibpm-topology" --cache selene.ibnetdiscover --write-net selene.net >/dev/null
    bench selene "Selene compute (simulated)" selene.net
  fi
} | tee "$out/routes.txt"
