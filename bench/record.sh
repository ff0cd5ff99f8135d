#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of --record: check_ib_fabric on a fat tree (648 hosts, 2,592 cabled ports, by default;
# IBPM_BENCH_HOSTS=3888 for the 3-level tree of 23,328 ports), steady state, topology from a cache
# file, state on the disk (IBPM_BENCH_STATE, default /var/tmp), with and without --record (the
# recording removed before each run), timed by hyperfine; the process CPU of one sweep each way;
# the bytes of one sweep's recording; and the replay of that recording in a plain process.
# Usage: bench/record.sh [BUILD_DIR]   (IBPM_BENCH_RUNS timed runs each, default 10)
set -euo pipefail
source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-10}
need_programs hyperfine ibnetdiscover:infiniband-diags
need_built check_ib_fabric ibpm-sim
hosts=${IBPM_BENCH_HOSTS:-648}
levels=2
((hosts > 648)) && levels=3
tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
disk=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-record.XXXXXX")
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp" "$disk"' EXIT
cd "$tmp"
client() { ( . "$tmp/sim/env" && exec "$@" ); }
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $hosts hosts, state and recording on $(df --output=source "$disk" | tail -1)"
"$bin/ibpm-sim" generate --hosts "$hosts" --radix 36 --levels "$levels" -o fabric.net >/dev/null
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" --timeout 900 >/dev/null
client ibnetdiscover --cache "$tmp/fabric.cache" >/dev/null 2>&1
off="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/state --no-syslog"
on="$off --record $disk/sweep.pcap"
client $off >/dev/null || true  # the state's first sample
( . "$tmp/sim/env" && hyperfine -N -i -w 2 -r "$runs" --prepare "rm -f $disk/sweep.pcap" \
  --export-json "$out/record.json" -n off "$off" -n record "$on" )
cpu() {  # COMMAND...: user + system seconds of one run
  client /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.2f", $1 + $2 }'
}
rm -f "$disk/sweep.pcap"
echo "process CPU of one sweep: $(cpu $off) s without, $(cpu $on) s with --record"
rm -f "$disk/sweep.pcap"
client $on >/dev/null || true
echo "recording of one sweep: $(stat -c %s "$disk/sweep.pcap") bytes"
rm -rf "$disk/replay"
hyperfine -N -i -w 1 -r "$runs" --prepare "rm -rf $disk/replay" -n replay \
  "$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/replay --no-syslog --replay $disk/sweep.pcap"
