#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A fabric of more nodes than a service may open files: a simulated 3-level fat tree of 1,300
# hosts (about 1,500 nodes, 7,800 cabled ports) swept twice by check_ib_fabric under
# `ulimit -n 256`. Both sweeps must poll every cabled port, the second must give rates, and the
# sweep's peak number of open descriptors (read from /proc/PID/fd while it runs) must stay under
# a bound that does not depend on the fabric's size. Then every tool that reads the whole fabric
# (ibpm-web, ibpm-map, ibpm-locality, ibpm-utilization, ibpm-nagios-config) runs under the same
# limit on that state.
# Usage: large_fabric.sh BIN_DIR
# Exit 77 (skipped) when ibsim or OpenSM are missing.
set -euo pipefail
bin=$1
hosts=${IBPM_LARGE_HOSTS:-1300}
fd_limit=256
fd_bound=24  # stdio, the umad port and the simulator's sockets, the lock file, one file at a time
fail() { echo "FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d /dev/shm/ibpm-large.XXXXXX 2>/dev/null || mktemp -d)
sim=$tmp/sim
state=$tmp/state
cleanup() {
  "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"  # libumad2sim builds its fake sysfs in the client's current folder

generated=$("$bin/ibpm-sim" generate --hosts "$hosts" --radix 18 --levels 3 -o "$tmp/fabric.net")
echo "$generated"
links=$(sed -n 's/.* \([0-9]*\) links.*/\1/p' <<<"$generated")
ports=$((2 * links))
rc=0
"$bin/ibpm-sim" start "$tmp/fabric.net" --dir "$sim" >/dev/null || rc=$?
[[ $rc == 77 ]] && { echo "ibsim or OpenSM missing: skipped"; exit 77; }
[[ $rc == 0 ]] || fail "ibpm-sim start: exit $rc"

# The clients' environment (IBSIM_SOCKNAME, LD_PRELOAD), then the limit, then the program itself,
# so that $! is the program's own pid.
limited() { ( . "$sim/env" && ulimit -n "$fd_limit" && exec "$@" ); }

"$bin/ibpm-sim" exec --dir "$sim" -- "$bin/ibpm-topology" --write-cache "$tmp/fabric.cache" \
  >/dev/null 2>"$tmp/client.log" || fail "ibpm-topology --write-cache: $(tail -1 "$tmp/client.log")"
# "  switches 379, CAs 1300, routers 0"
nodes=$("$bin/ibpm-topology" --cache "$tmp/fabric.cache" |
  awk '$1 == "switches" { gsub(",", ""); print $2 + $4 + $6 }')
echo "fabric: $hosts hosts, $nodes nodes, $ports cabled ports"
((nodes > 1024)) || fail "only $nodes nodes: the test needs more than 1,024"

# One sweep in the background; its peak descriptor count sampled until it exits.
peak=0
sweep() {  # OUTPUT_FILE
  # An hour of history per port (25 kB files, not 0.9 MB): 8,000 ports on a CI machine's tmpfs.
  limited "$bin/check_ib_fabric" --cache "$tmp/fabric.cache" --state-dir "$state" --no-syslog \
    --rrd-full-hours 1 --rrd-hourly-days 0 --rrd-daily-days 0 -t 120 >"$1" 2>"$1.err" &
  local pid=$! count
  while kill -0 "$pid" 2>/dev/null; do
    count=$(ls "/proc/$pid/fd" 2>/dev/null | wc -l) || count=0
    ((count > peak)) && peak=$count
    sleep 0.01
  done
  local status=0
  wait "$pid" || status=$?
  echo "sweep exit $status: $(head -1 "$1")"
  ((status <= 2)) || fail "check_ib_fabric exit $status: $(cat "$1" "$1.err")"
  grep -q "^IB FABRIC [A-Z]* - $ports ports polled in " "$1" || fail "not every port polled: $(head -1 "$1")"
}

sweep "$tmp/first.txt"
grep -q "collecting baseline" "$tmp/first.txt" || fail "the first sweep should collect its baseline"
sleep 2
sweep "$tmp/second.txt"
grep -q "collecting baseline" "$tmp/second.txt" && fail "the second sweep still collects its baseline"
# Rates: the sweep's perfdata carries fabric totals of data sent (the MADs themselves are traffic).
xmit=$(sed -n "s/.* xmit_data=\([0-9.]*\).*/\1/p" "$tmp/second.txt" | head -1)
[[ -n $xmit ]] && awk -v x="$xmit" 'BEGIN { exit !(x > 0) }' || fail "no data rate in the second sweep"
echo "peak open descriptors of a sweep: $peak (limit $fd_limit, bound $fd_bound)"
((peak > 0 && peak <= fd_bound)) || fail "peak of $peak open descriptors is above $fd_bound"
rrds=$(find "$state" -name 'port*.rrd' | wc -l)
((rrds == ports)) || fail "$rrds RRD files for $ports ports"

# The whole-fabric readers under the same limit.
run_tool() {  # PROGRAM ARGS...
  local status=0
  limited "$bin/$1" "${@:2}" >"$tmp/tool.out" 2>&1 || status=$?
  ((status == 0)) || fail "$1 under ulimit -n $fd_limit: exit $status: $(tail -3 "$tmp/tool.out")"
  echo "$1: ok"
}
history=(--cache "$tmp/fabric.cache" --state-dir "$state")
run_tool ibpm-web "${history[@]}" -o "$tmp/site"
run_tool ibpm-map "${history[@]}" -o "$tmp/map.svg"
run_tool ibpm-locality "${history[@]}"
run_tool ibpm-utilization "${history[@]}"
run_tool ibpm-nagios-config --cache "$tmp/fabric.cache" --format nagios -o "$tmp/nagios"
echo "large fabric: ok"
