#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_ib_port and check_ib_node against the infiniband-diags peer, in the steady state a Nagios
# scheduler sees: the topology cache and the RRD files already in the state directory.
#
# The fabric is a simulated 2-level fat tree of 648 hosts on 36-port switches (36 leaves,
# 18 spines) under ibsim; every command is a client of it, from the same tmpfs folder
# (libumad2sim builds its fake sysfs in the current directory).
#   (1) check_ib_port -n LEAF -p N (with its RRD read and update)  vs  perfquery -x LEAF_LID N
#   (2) check_ib_node -n LEAF (its 36 cabled ports)                vs  a loop of perfquery -x over them
# Whole processes are timed with hyperfine (-i: a WARNING or CRITICAL exit is no failure here;
# each check is run once first to make sure it is not UNKNOWN). Medians are compared.
#
# Usage: bench/check_port.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built check_ib_port, check_ib_node, ibpm-sim.
#   IBPM_BENCH_OUT  folder for hyperfine's JSON and the summary (default out/bench)
#   IBPM_BENCH_RUNS timed runs per command (default 30; 3 warm-ups each)
#   LEAF, PORT      the switch (default: the last leaf, away from the client's own) and port
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-30}
need_programs hyperfine perfquery:infiniband-diags
need_built check_ib_port check_ib_node ibpm-sim

tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cd "$tmp"
state=$tmp/state

# Runs a command as a client of the simulation (IBSIM_SOCKNAME, LD_PRELOAD=libumad2sim.so).
client() { ( . "$tmp/sim/env" && exec "$@" ); }

echo "fabric: 2-level fat tree, 648 hosts, 36-port switches"
"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null

# The leaf and its LID, from ibswitches (lines: Switch : GUID ports 36 "leaf36" base port 0 lid 130 ...).
switches=$(client ibswitches 2>/dev/null)
leaf=${LEAF:-$(sed -n 's/.*"\(leaf[0-9]*\)".*/\1/p' <<<"$switches" | sort | tail -1)}
lid=$(sed -n "s/.*\"$leaf\" base port 0 lid \([0-9]*\) .*/\1/p" <<<"$switches")
[[ -n $leaf && -n $lid ]] || { echo "no leaf switch ${LEAF:-} found by ibswitches" >&2; exit 1; }

# Warm the state: the first check_ib_node discovers the fabric (writes STATE/topology.ibnetdiscover) and
# creates one RRD per cabled port; its long output names those ports (leaf36[7] <-> ...).
rc=0
listing=$(client "$bin/check_ib_node" -n "$leaf" --state-dir "$state" -v 2>/dev/null) || rc=$?
((rc != 3)) || { echo "check_ib_node is UNKNOWN: $listing" >&2; exit 1; }
mapfile -t ports < <(sed -n "s/.*$leaf\[\([0-9]*\)\] <->.*/\1/p" <<<"$listing" | sort -n)
((${#ports[@]} > 0)) || { echo "no cabled port of $leaf in: $listing" >&2; exit 1; }
port=${PORT:-${ports[0]}}
[[ -f $state/topology.ibnetdiscover ]] || { echo "no $state/topology.ibnetdiscover after the first run" >&2; exit 1; }
echo "leaf: $leaf (LID $lid), cabled ports: ${#ports[@]}; check_ib_port on port $port"

port_cmd="$bin/check_ib_port -n $leaf -p $port --state-dir $state"
node_cmd="$bin/check_ib_node -n $leaf --state-dir $state"
peer_cmd="perfquery -x $lid $port"
loop_cmd="for p in ${ports[*]}; do perfquery -x $lid \$p; done"

# Once each, in the steady state (second sample): not UNKNOWN, and the peer answers.
for cmd in "$port_cmd" "$node_cmd"; do
  rc=0
  text=$(client $cmd 2>/dev/null) || rc=$?
  ((rc != 3)) || { echo "UNKNOWN: $cmd: $text" >&2; exit 1; }
  line=$(head -1 <<<"$text")
  echo "  exit $rc: ${line:0:110}"
done
client $peer_cmd >/dev/null 2>&1 || { echo "$peer_cmd fails" >&2; exit 1; }
client sh -c "$loop_cmd" >/dev/null 2>&1 || { echo "the perfquery loop fails" >&2; exit 1; }

echo "(1) one port: hyperfine -N -i --warmup 3 --runs $runs"
client hyperfine -N -i --warmup 3 --runs "$runs" --style basic --export-json "$out/check_port.json" \
  -n "check_ib_port -n $leaf -p $port" "$port_cmd" \
  -n "perfquery -x $lid $port (peer)" "$peer_cmd" \
  -n "check_ib_port --version (start-up only)" "$bin/check_ib_port --version" \
  >/dev/null 2>&1
echo "(2) the whole leaf: hyperfine -i --warmup 3 --runs $runs (sh -c, its start-up subtracted)"
client hyperfine -i --warmup 3 --runs "$runs" --style basic --export-json "$out/check_node.json" \
  -n "check_ib_node -n $leaf (${#ports[@]} ports)" "$node_cmd" \
  -n "perfquery -x loop over ${#ports[@]} ports (peer)" "$loop_cmd" \
  >/dev/null 2>&1

python3 - "$out/check_port.json" "$out/check_node.json" <<'PY' | tee "$out/check_port.txt"
import json, sys
print(f"{'command':52} {'median ms':>10} {'mean ms':>8} {'min ms':>7} {'vs peer':>8}")
for path, aim in zip(sys.argv[1:], ["aim: ratio <= 1", "aim: ratio <= 0.1 (10x faster)"]):
    results = json.load(open(path))["results"]
    peer = next(r for r in results if "(peer)" in r["command"])
    for r in results:
        print(f"{r['command']:52} {r['median']*1000:10.2f} {r['mean']*1000:8.2f} "
              f"{r['min']*1000:7.2f} {r['median']/peer['median']:8.2f}")
    ours = results[0]
    print(f"  ours/peer = {ours['median']/peer['median']:.2f} "
          f"(peer/ours = {peer['median']/ours['median']:.1f}x); {aim}\n")
PY
echo "hyperfine JSON: $out/check_port.json $out/check_node.json"
