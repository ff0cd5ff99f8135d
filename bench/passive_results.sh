#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What one check interval costs the monitoring server, in process CPU (user + system, every
# process of the interval), with the switches' services active (today's default) and passive (one
# sweep hands every switch's result to Nagios): the simulated 648-host fat tree, 54 switches,
# 2,592 cabled ports, state on disk, writes through a local rrdcached, all in the same run.
#
#   active    check_ib_fabric, then for each switch its ib-node service (check_ib_node) and its
#             host check (check_ib_node_alive: check_ib_node with its own state directory), as
#             ibpm-nagios-config writes them by default
#   passive   check_ib_fabric --nagios-spool DIR (every switch's result into Nagios's check result
#             spool; the hosts are checked on demand only)
#
# Each interval is run IBPM_BENCH_RUNS times (default 5) after two warm-up intervals; the median
# CPU seconds are reported with their ratio. CPU seconds depend less on what else the machine does
# than wall time, but say what it was doing when you quote them.
#
# Usage: bench/passive_results.sh [BUILD_DIR]
#   IBPM_BENCH_OUT    results (default out/bench): passive_results.txt
#   IBPM_BENCH_STATE  parent of the state directory (default /var/tmp: a disk, not tmpfs)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-5}
need_programs ibswitches:infiniband-diags rrdcached python3
need_built check_ib_fabric check_ib_node ibpm-sim
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }

tmp=$(mktemp -d /dev/shm/ibpm-passive.XXXXXX)
disk=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-passive-state.XXXXXX")
cleanup() {
  stop_rrdcached
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  rm -rf "$tmp" "$disk"
}
trap cleanup EXIT
cd "$tmp"

"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net >/dev/null
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null
start_rrdcached "$tmp/rrdcached.sock" -l "unix:$tmp/rrdcached.sock" -b "$disk" -j "$disk" \
  -p "$tmp/rrdcached.pid"
mkdir -p "$tmp/spool"

# The checks as the generated configuration runs them (the topology in the state directory).
common="--state-dir $disk/state --rrdcached unix:$tmp/rrdcached.sock"
mapfile -t switches < <(. "$tmp/sim/env" && ibswitches 2>/dev/null |
  sed -n 's/.*"\([a-z]*[0-9]*\)" base port 0 lid.*/\1/p')
((${#switches[@]} == 54)) || { echo "expected 54 switches, ibswitches names ${#switches[@]}" >&2; exit 1; }
{
  echo "$bin/check_ib_fabric $common --no-syslog >/dev/null 2>&1 || true"
  for s in "${switches[@]}"; do
    echo "$bin/check_ib_node --node $s $common >/dev/null 2>&1 || true"
    echo "$bin/check_ib_node --node $s --no-default-thresholds --state-dir $disk/host-checks >/dev/null 2>&1 || true"
  done
} >active.sh
echo "$bin/check_ib_fabric $common --no-syslog --nagios-spool $tmp/spool >/dev/null 2>&1 || true" \
  >passive.sh

# CPU seconds of one interval: GNU time over bash counts every child bash waited for.
interval() {
  ( . "$tmp/sim/env" && /usr/bin/time -f "%U %S" -o cpu.txt bash "$1" )
  awk '{ printf "%.3f\n", $1 + $2 }' cpu.txt
}
for script in active.sh passive.sh; do interval "$script" >/dev/null; interval "$script" >/dev/null; done
declare -A cpu
for script in active passive; do
  cpu[$script]=$(for _ in $(seq "$runs"); do interval "$script.sh"; done | sort -n |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
done
grep -q "host_name=leaf01" "$tmp"/spool/c?????? 2>/dev/null ||
  { echo "the passive sweep handed no result for leaf01 to the spool" >&2; exit 1; }
python3 - "${cpu[active]}" "${cpu[passive]}" "${#switches[@]}" "$runs" <<'PY' | tee "$out/passive_results.txt"
import sys
active, passive, switches, runs = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
print(f"648-host fat tree, {switches} switches, 2,592 ports; process CPU of one check interval, median of {runs}:")
print(f"  active  (sweep + {switches} ib-node services + {switches} host checks): {active:.2f} s")
print(f"  passive (one sweep handing {switches} results to Nagios's spool):      {passive:.2f} s")
print(f"  passive / active: {passive / active:.2f}")
PY
