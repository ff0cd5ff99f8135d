#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sweep's memory counted, not timed: a steady-state check_ib_fabric (through rrdcached, the
# sample record in place) over two simulated two-level fat trees, 648 hosts (2,592 cabled ports)
# and 1,296 hosts (5,184), under GNU time. What the larger fabric costs beyond the smaller one,
# divided by the ports it adds, is the sweep's memory per port (topology included): it must stay
# within the budget, so that a sweep of 20,000 ports or more stays small. A per-port structure
# that grows (a value-initialised record of kilobytes, a copy of every sample, a subcheck and its
# strings for every OK port) fails here.
# Usage: memory_per_port.sh BIN_DIR
# Exit 77 (skipped) when ibsim, OpenSM, rrdcached or GNU time are missing.
set -euo pipefail
bin=$1
scripts=$(cd "$(dirname "$0")/../../scripts" && pwd)
# Bytes of max RSS per added port (topology, target, result, record entry, verdict). The sweep
# takes 1,007-1,105 (three runs; the budget leaves some 18 % over the highest); before a port's
# sample was kept once (in the record, the results sharing it) and its readings in the room of its
# rates, 1,222-1,360; before an OK port's verdict was made
# empty, the record's entries came from one arena and the results were made after the record's
# file was read, 1,504 (the same two fabrics, one run each) and 1,490 in earlier runs
# (1,452-1,550); before its MAD queries were made as they went out (not kept, 88 bytes each)
# 1,610, before the results shared their targets, the RRD batch and the record's save were
# streamed and the rates' percentages were compacted 1,870, before the counters were kept once
# per result 2,550, before the compact layout of counters, records and verdicts 5,900.
bytes_per_port_max=${IBPM_MEMORY_PER_PORT_MAX:-1300}
# Heap allocations per added port in one steady sweep, counted by heaptrack (when installed: CI
# installs it), the simulator shim's left out: libumad2sim allocates three times per MAD, which
# hardware does not. The sweep's own: 2.9 per port added here, 0.95 at 23,328 ports (22,257 in
# all), where the nodes weigh less (3.4 and 1.5 before the sampler kept its agents' targets in
# one list, 7.4 and 5.5 before that): none of them is per port any more: the topology allocates
# per node, the sample record's entries come from one arena and the RRD updates are written
# straight into the batch. A string or a container per port or per metric shows here at once.
# The per-subtree aggregates (locality/sweep_aggregates.cpp) add 1.1 a port: the sweep finds the
# subtrees again each run (the fabric's Boost graph keeps one list entry per cable, and each
# node's edges in a vector of its own; the levels and down-sets follow), 4.0 in all here.
allocations_per_port_max=${IBPM_ALLOCATIONS_PER_PORT_MAX:-4.4}
heaptrack=
command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null && heaptrack=heaptrack
[[ -n $heaptrack ]] || echo "heaptrack is not installed: heap allocations not counted"
fail() { echo "FAIL: $*" >&2; exit 1; }
for program in rrdcached /usr/bin/time; do
  command -v "$program" >/dev/null || { echo "$program is not installed: skipped"; exit 77; }
done

tmp=$(mktemp -d /dev/shm/ibpm-memory.XXXXXX 2>/dev/null || mktemp -d)
sim=
daemon_pid=
cleanup() {
  [[ -n $daemon_pid ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  [[ -n $sim ]] && "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"

rrdcached -g -l "unix:$tmp/rrdcached.sock" -j "$tmp" -p "$tmp/rrdcached.pid" >/dev/null 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [[ -S $tmp/rrdcached.sock ]] && break; sleep 0.05; done
[[ -S $tmp/rrdcached.sock ]] || fail "rrdcached did not start"

# measure HOSTS RADIX: prints "PORTS RSS_KB" of a steady-state sweep.
measure() {
  local hosts=$1 radix=$2 state=$tmp/state-$1
  "$bin/ibpm-sim" generate --hosts "$hosts" --radix "$radix" -o "fabric-$hosts.net" >/dev/null
  sim=$tmp/sim-$hosts
  local rc=0
  "$bin/ibpm-sim" start "fabric-$hosts.net" --dir "$sim" >/dev/null || rc=$?
  [[ $rc == 77 ]] && { echo "ibsim or OpenSM missing: skipped" >&2; exit 77; }
  [[ $rc == 0 ]] || fail "ibpm-sim start: exit $rc"
  local sweep=("$bin/check_ib_fabric" --state-dir "$state" --no-syslog -t 120
    --rrd-full-hours 1 --rrd-hourly-days 0 --rrd-daily-days 0
    --rrdcached "unix:$tmp/rrdcached.sock")
  # The first sweep discovers the topology and makes the files, the second writes the record.
  (. "$sim/env" && "${sweep[@]}") >/dev/null 2>&1 || true
  (. "$sim/env" && "${sweep[@]}") >/dev/null 2>&1 || true
  (. "$sim/env" && exec /usr/bin/time -f %M -o "$tmp/rss-$hosts" "${sweep[@]}") \
    >"$tmp/out-$hosts" 2>/dev/null || true
  local allocations=-
  if [[ -n $heaptrack ]]; then
    (. "$sim/env" && exec heaptrack -o "$tmp/heap-$hosts" "${sweep[@]}") >/dev/null 2>&1 || true
    allocations=$("$scripts/own-allocations.sh" "$tmp"/heap-"$hosts".*zst)
    [[ -n $allocations ]] || fail "$hosts hosts: heaptrack counted nothing"
  fi
  "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true
  sim=
  local ports
  ports=$(sed -n 's/.* ports=\([0-9]*\).*/\1/p' "$tmp/out-$hosts" | head -1)
  [[ -n $ports ]] || fail "$hosts hosts: $(head -1 "$tmp/out-$hosts")"
  grep -q "$ports ports polled" "$tmp/out-$hosts" || fail "$hosts hosts: $(head -1 "$tmp/out-$hosts")"
  echo "$ports $(tail -1 "$tmp/rss-$hosts") $allocations"
}

read -r small_ports small_kb small_allocations < <(measure 648 36)
read -r large_ports large_kb large_allocations < <(measure 1296 72)
awk -v sp="$small_ports" -v sk="$small_kb" -v lp="$large_ports" -v lk="$large_kb" \
    -v max="$bytes_per_port_max" 'BEGIN {
  per_port = (lk - sk) * 1024 / (lp - sp)
  printf "%d ports: max RSS %d kB; %d ports: max RSS %d kB; %.0f bytes per added port (budget %d)\n",
         sp, sk, lp, lk, per_port, max
  exit !(per_port <= max) }' || fail "the sweep's memory grows by more than $bytes_per_port_max bytes per port"
if [[ -n $heaptrack ]]; then
  awk -v sp="$small_ports" -v sa="$small_allocations" -v lp="$large_ports" \
      -v la="$large_allocations" -v max="$allocations_per_port_max" 'BEGIN {
    per_port = (la - sa) / (lp - sp)
    printf "%d ports: %d heap allocations (the sweep'"'"'s own); %d ports: %d; %.1f per added port (budget %g)\n",
           sp, sa, lp, la, per_port, max
    exit !(per_port <= max) }' ||
    fail "the sweep makes more than $allocations_per_port_max heap allocations per port"
fi
echo "memory per port within budget"
