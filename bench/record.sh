#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The cost of --record: check_ib_fabric on the 648-host fat tree (2,592 cabled ports, steady
# state, topology from a cache file), with and without --record (the recording removed before
# each run), timed by hyperfine; and the replay of that recording in a plain process.
# Usage: bench/record.sh [BUILD_DIR]   (IBPM_BENCH_RUNS timed runs each, default 10)
set -euo pipefail
source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-10}
need_programs hyperfine ibnetdiscover:infiniband-diags
need_built check_ib_fabric ibpm-sim
tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cd "$tmp"
client() { ( . "$tmp/sim/env" && exec "$@" ); }
"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net >/dev/null
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null
client ibnetdiscover --cache "$tmp/fabric.cache" >/dev/null 2>&1
off="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $tmp/state --no-syslog"
on="$off --record $tmp/sweep.pcap"
client $off >/dev/null || true  # the state's first sample
( . "$tmp/sim/env" && hyperfine -N -i -w 2 -r "$runs" --prepare "rm -f $tmp/sweep.pcap" \
  --export-json "$out/record.json" -n off "$off" -n record "$on" )
client $on >/dev/null || true
echo "recording of one sweep: $(stat -c %s "$tmp/sweep.pcap") bytes"
rm -rf "$tmp/replay"
hyperfine -N -i -w 1 -r "$runs" --prepare "rm -rf $tmp/replay" -n replay \
  "$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $tmp/replay --no-syslog --replay $tmp/sweep.pcap"
