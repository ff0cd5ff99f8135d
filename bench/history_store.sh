#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What reading history through rrdcached costs against reading the files, without a fabric:
# ibpm-bench-history fills IBPM_BENCH_PORTS port files (23,328 by default: the 3,888-host tree)
# with two hours of minutes through a local rrdcached (a unix socket, as
# packaging/systemd/ibpm-rrdcached.service runs it) and through a central store (TCP, -B -R, as
# docs/operators.md runs it), then, each run, writes five more minutes that the daemons hold
# (-w 3600) and reads every port's last 15 minutes: through each daemon with its updates pending
# (the first report after the sweeps), again with nothing pending, and from the files. Prints
# medians, each as a ratio to the files' in the same runs, and each read's exchanges.
#
# Usage: bench/history_store.sh [BUILD_DIR]
#   IBPM_BENCH_PORTS  port files (default 23328)
#   IBPM_BENCH_RUNS   runs (default 3)
#   IBPM_BENCH_STATE  parent of the state (default /var/tmp: a disk)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
need_programs rrdcached python3
need_built ibpm-bench-history
state=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-history-store.XXXXXX")
cleanup() {
  stop_rrdcached
  rm -rf "$state"
}
trap cleanup EXIT
mkdir -p "$state/local" "$state/local-journal" "$state/store" "$state/store-journal"
start_rrdcached "$state/rrdcached.sock" -B -b "$state/local" -j "$state/local-journal" \
  -w 3600 -z 60 -f 7200 -p "$state/local.pid" -l "unix:$state/rrdcached.sock"
port=$(free_loopback_port)
start_rrdcached "127.0.0.1:$port" -O -R -B -b "$state/store" -j "$state/store-journal" \
  -w 3600 -z 60 -f 7200 -p "$state/store.pid" -l "127.0.0.1:$port"
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), state on $(df --output=source "$state" | tail -1)"
"$bin/ibpm-bench-history" --state-dir "$state/local" --local "unix:$state/rrdcached.sock" \
  --central "127.0.0.1:$port" --central-base "$state/store" \
  --ports "${IBPM_BENCH_PORTS:-23328}" --runs "${IBPM_BENCH_RUNS:-3}"
