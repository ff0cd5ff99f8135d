#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check_ib_sm against the infiniband-diags commands that give the same information: saquery -s
# (the ports with the IsSM capability, from the SA) and sminfo of each SM (its state, priority and
# ActCount, from the SM itself).
#
# The fabric is a simulated 2-level fat tree of 648 hosts on 36-port switches under ibsim, with two
# OpenSM daemons attached to two hosts (SIM_HOST), priorities 10 and 5: a master and a standby.
# Whole processes are timed with hyperfine; the MADs each side sends are counted (ours from
# check_ib_sm -v, the peers' one per query: saquery one SA query, sminfo one SMP each).
#
# Usage: bench/sm.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built check_ib_sm and ibpm-sim.
#   IBPM_BENCH_OUT  folder for hyperfine's JSON and the summary (default out/bench)
#   IBPM_BENCH_RUNS timed runs per command (default 30; 3 warm-ups each)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-30}
need_programs hyperfine sminfo:infiniband-diags saquery:infiniband-diags opensm:opensm
need_built check_ib_sm ibpm-sim

tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
sms=()
cleanup() {
  for pid in "${sms[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${sms[@]}"; do wait "$pid" 2>/dev/null || true; done
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
state=$tmp/state

client() { ( . "$tmp/sim/env" && exec "$@" ); }

echo "fabric: 2-level fat tree, 648 hosts, 36-port switches; OpenSM on two hosts"
"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null
mapfile -t hosts < <(sed -n 's/^Hca[[:space:]]*[0-9]*[[:space:]]*"\([^"]*\)".*/\1/p' fabric.net | sed -n '2p;3p')
((${#hosts[@]} == 2)) || { echo "no two hosts in fabric.net" >&2; exit 1; }
printf 'sweep_interval 10\n' >opensm.conf
priority=10
for host in "${hosts[@]}"; do
  mkdir -p "$tmp/$host"
  ( cd "$tmp/$host" && . "$tmp/sim/env" && SIM_HOST=$host OSM_CACHE_DIR=$tmp/$host \
      exec opensm -F "$tmp/opensm.conf" -p "$priority" -f "$tmp/$host/osm.log" ) >/dev/null 2>&1 &
  sms+=($!)
  priority=5
  sleep 2
done

# Until the master and the standby both answer.
for _ in $(seq 60); do
  text=$(client "$bin/check_ib_sm" --state-dir "$state" -v 2>/dev/null) && grep -q "1 standby" <<<"$text" && break
  sleep 1
done
grep -q "1 standby" <<<"$text" || { echo "the SMs did not settle: $text" >&2; exit 1; }
echo "  $(head -1 <<<"$text" | cut -c1-110)"
ours_mads=$(sed -n 's/.*MADs: \([0-9]*\) sent.*/\1/p' <<<"$text")
mapfile -t lids < <(sed -n 's/.*, LID \([0-9]*\)): \(master\|standby\).*/\1/p' <<<"$text")
peer_cmd="saquery -s >/dev/null; for lid in ${lids[*]}; do sminfo \$lid; done"
client sh -c "$peer_cmd" >/dev/null 2>&1 || { echo "the peer fails: $peer_cmd" >&2; exit 1; }

echo "hyperfine -i --warmup 3 --runs $runs (sh -c, its start-up subtracted)"
client hyperfine -i --warmup 3 --runs "$runs" --style basic --export-json "$out/sm.json" \
  -n "check_ib_sm" "$bin/check_ib_sm --state-dir $state" \
  -n "saquery -s + sminfo of ${#lids[@]} SMs (peer)" "$peer_cmd" \
  -n "sminfo (the master only)" "sminfo" \
  >/dev/null 2>&1

python3 - "$out/sm.json" "$ours_mads" "$((1 + ${#lids[@]}))" <<'PY' | tee "$out/sm.txt"
import json, sys
results = json.load(open(sys.argv[1]))["results"]
mads = {"check_ib_sm": sys.argv[2]}
peer = next(r for r in results if "(peer)" in r["command"])
mads[peer["command"]] = sys.argv[3]
mads["sminfo (the master only)"] = "1"
print(f"{'command':40} {'median ms':>10} {'mean ms':>8} {'min ms':>7} {'vs peer':>8} {'MADs':>5}")
for r in results:
    print(f"{r['command']:40} {r['median']*1000:10.2f} {r['mean']*1000:8.2f} "
          f"{r['min']*1000:7.2f} {r['median']/peer['median']:8.2f} {mads.get(r['command'], '?'):>5}")
PY
echo "hyperfine JSON: $out/sm.json"
