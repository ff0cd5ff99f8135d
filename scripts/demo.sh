#!/usr/bin/env bash
# The main job on a simulated fabric: build, start a fat tree (ibsim + one OpenSM sweep), discover
# it and print its summary, save a baseline, then pull a cable and put it back while
# check_ib_topology watches, as Nagios would run it. Stops everything it started.
# Usage: scripts/demo.sh [--hosts N] [--radix R] [--levels 2|3] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

hosts=648 radix=36 levels=2 out=$root/out/demo
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts=$2; shift ;;
    --radix) radix=$2; shift ;;
    --levels) levels=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "usage: $0 [--hosts N] [--radix R] [--levels 2|3] [--out DIR]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

step() { printf '\n==> %s\n' "$*"; }

step "Installing what is missing"
scripts/install-deps.sh

step "Building (build/)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)" --target ibpm-sim ibpm-topology check_ib_topology \
  check_ib_port check_ib_node >/dev/null
bin=$root/build/bin

sim=$out/sim
"$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true
trap '"$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true' EXIT
on_fabric() { "$bin/ibpm-sim" exec --dir "$sim" -- "$@" 2>/dev/null; }
as_nagios() {  # runs a check and prints its output and state as Nagios would show them
  local rc=0
  on_fabric "$@" || rc=$?
  local states=(OK WARNING CRITICAL UNKNOWN)
  echo "    (exit $rc: ${states[$rc]:-UNKNOWN})"
}

step "Generating a $levels-level fat tree of $hosts hosts (radix $radix)"
"$bin/ibpm-sim" generate --hosts "$hosts" --radix "$radix" --levels "$levels" -o "$out/fabric.net"

step "Starting the simulated fabric (ibsim + one OpenSM sweep)"
"$bin/ibpm-sim" start "$out/fabric.net" --dir "$sim"

step "Discovering the fabric (libibnetdisc) and saving it"
on_fabric "$bin/ibpm-topology" --write-cache "$out/fabric.cache" --write-dump "$out/fabric.ibnetdiscover"

step "check_ib_topology: saving the baseline, then checking against it"
as_nagios "$bin/check_ib_topology" --write-baseline "$out/baseline.cache"
as_nagios "$bin/check_ib_topology" --baseline "$out/baseline.cache"

step "check_ib_node on leaf02: the first run collects a baseline in RRD files"
state=$out/state
rm -rf "$state"
as_nagios "$bin/check_ib_node" -n leaf02 --state-dir "$state"

step "Symbol errors and 16 GB received on leaf02 port 2, then the node and the port again"
"$bin/ibpm-sim" cmd --dir "$sim" 'PerformanceSet "leaf02"[2] PortCounters.SymbolErrorCounter=40' \
  'PerformanceSet "leaf02"[2] PortCountersExtended.PortRcvData=4000000000' >/dev/null
sleep 1
as_nagios "$bin/check_ib_node" -n leaf02 --state-dir "$state"
as_nagios "$bin/check_ib_port" -n leaf02 -p 2 --state-dir "$state" -v

step "Pulling the cable of leaf01's first uplink"
uplink=$((radix / 2 + 1))
"$bin/ibpm-sim" cmd --dir "$sim" "Unlink \"leaf01\"[$uplink]" >/dev/null
as_nagios "$bin/check_ib_topology" --baseline "$out/baseline.cache"

step "Putting it back"
"$bin/ibpm-sim" cmd --dir "$sim" "ReLink \"leaf01\"[$uplink]" >/dev/null
as_nagios "$bin/check_ib_topology" --baseline "$out/baseline.cache"

step "Stopping the simulated fabric"
"$bin/ibpm-sim" stop --dir "$sim"
trap - EXIT

step "Outputs in $out"
ls -l "$out" | sed 1d
