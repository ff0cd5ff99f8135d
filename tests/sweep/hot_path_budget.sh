#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sweep's hot path, counted rather than timed (counts do not depend on the machine or on what
# else it is doing): a steady-state check_ib_fabric over the simulated 648-host fat tree (2,592
# cabled ports) must stay within a budget of MADs per port (the sweep's own perfdata) and of
# file-system and memory-mapping system calls per port (strace -c: open, close, stat, mmap,
# munmap, madvise, fcntl, rename, ...), once through rrdcached and once writing the RRD files
# itself. A change that makes the sweep read RRD files back, reopen them or send more queries per
# port fails here.
# Usage: hot_path_budget.sh BIN_DIR
# Exit 77 (skipped) when ibsim, OpenSM, rrdcached or strace are missing.
set -euo pipefail
bin=$1
# Budgets: what the sweep reaches, with a little room. MADs: PortCounters and
# PortCountersExtended per port (ibsim answers a zero CapabilityMask2, so the sweep takes the
# two-MAD path here), NodeInfo per switch, PortInfo (and a CA's NodeInfo) per port every 10 sweeps.
mads_per_port_max=2.2
fs_calls_per_port_max_daemon=0.5    # start-up, the record, the lock file, the summary: none per port
fs_calls_per_port_max_direct=10.5   # librrd's open/fstat/mmap/madvise/munmap/close of each file
fail() { echo "FAIL: $*" >&2; exit 1; }
for program in rrdcached strace; do
  command -v "$program" >/dev/null || { echo "$program is not installed: skipped"; exit 77; }
done

tmp=$(mktemp -d /dev/shm/ibpm-budget.XXXXXX 2>/dev/null || mktemp -d)
sim=$tmp/sim
daemon_pid=
cleanup() {
  [[ -n $daemon_pid ]] && kill "$daemon_pid" 2>/dev/null && wait "$daemon_pid" 2>/dev/null
  "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"

"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net >/dev/null
rc=0
"$bin/ibpm-sim" start fabric.net --dir "$sim" >/dev/null || rc=$?
[[ $rc == 77 ]] && { echo "ibsim or OpenSM missing: skipped"; exit 77; }
[[ $rc == 0 ]] || fail "ibpm-sim start: exit $rc"
client() { ( . "$sim/env" && exec "$@" ); }
client "$bin/ibpm-topology" --write-cache fabric.cache >/dev/null 2>&1 || fail "ibpm-topology --write-cache"

rrdcached -g -l "unix:$tmp/rrdcached.sock" -j "$tmp" -p "$tmp/rrdcached.pid" >/dev/null 2>&1 &
daemon_pid=$!
for _ in $(seq 100); do [[ -S $tmp/rrdcached.sock ]] && break; sleep 0.05; done
[[ -S $tmp/rrdcached.sock ]] || fail "rrdcached did not start"

# Short files: the budget is about the steady state, not about creating 2,592 files of 0.9 MB.
sweep() {  # STATE_DIR [more options]
  client "$bin/check_ib_fabric" --cache fabric.cache --state-dir "$1" --no-syslog \
    --rrd-full-hours 1 --rrd-hourly-days 0 --rrd-daily-days 0 "${@:2}"
}
perf() { sed -n "s/.* $2=\\([0-9.]*\\).*/\\1/p" "$1" | head -1; }

# strace -c's table: "% time  seconds  usecs/call  calls  [errors]  syscall"; calls is field 4.
fs_calls() {
  awk '$NF ~ /^(open|openat|close|stat|lstat|fstat|newfstatat|statx|access|mmap|munmap|madvise|mremap|msync|fcntl|flock|rename|renameat|renameat2|unlink|unlinkat|mkdir|mkdirat|getdents64|lseek|pread64|pwrite64|fsync|fdatasync|ftruncate|fallocate)$/ {
         sum += $4 } END { print sum + 0 }' "$1"
}
all_calls() { awk '$NF == "total" { print $4 }' "$1"; }

check_budget() {  # LABEL STATE_DIR FS_MAX [more options]
  local label=$1 state=$2 fs_max=$3
  sweep "$state" "${@:4}" >/dev/null || true   # baseline: files made
  sweep "$state" "${@:4}" >/dev/null || true   # the record written once
  client strace -f -c -o "$tmp/$label.strace" "$bin/check_ib_fabric" --cache fabric.cache \
    --state-dir "$state" --no-syslog "${@:4}" >"$tmp/$label.out" 2>/dev/null || true
  head -1 "$tmp/$label.out" | grep -q "2592 ports polled" || fail "$label: $(head -1 "$tmp/$label.out")"
  local ports mads fs all
  ports=$(perf "$tmp/$label.out" ports)
  mads=$(perf "$tmp/$label.out" mads)
  fs=$(fs_calls "$tmp/$label.strace")
  all=$(all_calls "$tmp/$label.strace")
  awk -v l="$label" -v p="$ports" -v m="$mads" -v f="$fs" -v a="$all" 'BEGIN {
    printf "%s: %d ports, %.2f MADs/port, %.3f file-system calls/port, %.1f system calls/port in all\n",
           l, p, m / p, f / p, a / p }'
  awk -v p="$ports" -v m="$mads" -v max="$mads_per_port_max" 'BEGIN { exit !(m / p <= max) }' ||
    fail "$label: $mads MADs for $ports ports, more than $mads_per_port_max per port"
  awk -v p="$ports" -v f="$fs" -v max="$fs_max" 'BEGIN { exit !(f / p <= max) }' ||
    { grep -E "calls|total|open|mmap|fcntl|close" "$tmp/$label.strace" >&2;
      fail "$label: $fs file-system calls for $ports ports, more than $fs_max per port"; }
}

check_budget rrdcached "$tmp/state-daemon" "$fs_calls_per_port_max_daemon" \
  --rrdcached "unix:$tmp/rrdcached.sock"
check_budget direct "$tmp/state-direct" "$fs_calls_per_port_max_direct"
echo "hot path within budget"
