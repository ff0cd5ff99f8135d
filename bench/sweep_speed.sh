#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The sweep at speed, as a Nagios server runs it: check_ib_fabric in the steady state (previous
# samples in its record, RRD files made) on the simulated 648-host fat tree (2,592 cabled ports),
# the state directory ON DISK, against ibqueryerrors reading the same fabric from the same cache
# file, in the same run; then the same with one CPU-bound process beside it (stress-ng --cpu 1),
# as on a busy monitoring server. Also: MADs and system calls per port, the sweep's MAD rate
# against the MAD engine's ceiling, and the single-node checks against perfquery.
#
#   peer      ibqueryerrors --skip-sl --load-cache fabric.cache --data        (error counters)
#             ibqueryerrors --skip-sl --load-cache fabric.cache --counters    (data counters)
#   ours      check_ib_fabric --cache fabric.cache --rrdcached unix:SOCK      (RRD writes batched)
#             check_ib_fabric --cache fabric.cache                           (RRD files written)
#   ceiling   ibpm-bench-mad --window 64 --rounds 5 (PMA queries/s the simulator answers)
#   one node  check_ib_port -n LID -p 1 against perfquery -x LID 1 (median of 30);
#             check_ib_node -n leaf01 against a loop of perfquery -x over its 36 ports
#
# Usage: bench/sweep_speed.sh [BUILD_DIR]
#   IBPM_BENCH_OUT    results (default out/bench): sweep_speed.txt, hyperfine JSON
#   IBPM_BENCH_STATE  parent of the state directory (default /var/tmp: a disk, not tmpfs)
#   IBPM_BENCH_RUNS   timed runs per command (default 10, 2 warm-ups)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-10}
need_programs hyperfine stress-ng:stress-ng strace perfquery:infiniband-diags \
  ibqueryerrors:infiniband-diags rrdcached python3
need_built check_ib_fabric check_ib_port check_ib_node ibpm-bench-mad ibpm-sim ibpm-topology

tmp=$(mktemp -d /dev/shm/ibpm-speed.XXXXXX)  # the simulator's clients build their sysfs here
disk=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-speed-state.XXXXXX")
[[ $(stat -f -c %T "$disk") != tmpfs ]] || echo "warning: $disk is on tmpfs, not a disk" >&2
stress_pid=
cleanup() {
  [[ -n $stress_pid ]] && kill "$stress_pid" 2>/dev/null
  stop_rrdcached
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  rm -rf "$tmp" "$disk"
}
trap cleanup EXIT
cd "$tmp"
client() { ( . "$tmp/sim/env" && exec "$@" ); }

"$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null
client ibnetdiscover --cache "$tmp/fabric.cache" >/dev/null 2>&1
ports=2592

start_rrdcached "$tmp/rrdcached.sock" -l "unix:$tmp/rrdcached.sock" -b "$disk" -j "$disk" \
  -p "$tmp/rrdcached.pid"

daemon_cmd="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/daemon --no-syslog --rrdcached unix:$tmp/rrdcached.sock"
direct_cmd="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/direct --no-syslog"
data_peer="ibqueryerrors --skip-sl --load-cache $tmp/fabric.cache --data"
counters_peer="ibqueryerrors --skip-sl --load-cache $tmp/fabric.cache --counters"
# The steady state: files made, the record written.
for cmd in "$daemon_cmd" "$direct_cmd"; do
  for _ in 1 2; do client $cmd >/dev/null 2>&1 || true; done
  line=$(client $cmd 2>/dev/null) || true
  [[ $line == *"$ports ports polled"* ]] || { echo "not a steady sweep: $line" >&2; exit 1; }
done

sweeps() {  # LABEL
  client hyperfine -N -i --warmup 2 --runs "$runs" --style basic --export-json "$out/sweep_speed_$1.json" \
    -n "peer_data: ibqueryerrors --load-cache --data" "$data_peer" \
    -n "peer_counters: ibqueryerrors --load-cache --counters" "$counters_peer" \
    -n "ours_daemon: check_ib_fabric --rrdcached" "$daemon_cmd" \
    -n "ours_direct: check_ib_fabric (RRD files written)" "$direct_cmd" >"hyperfine_$1.log" 2>&1 ||
    { cat "hyperfine_$1.log" >&2; exit 1; }
}
echo "sweeps on a quiet machine (hyperfine, $runs runs)"
sweeps quiet
echo "sweeps beside stress-ng --cpu 1"
stress-ng --cpu 1 --quiet >/dev/null 2>&1 &
stress_pid=$!
sleep 1
sweeps busy
kill "$stress_pid"
wait "$stress_pid" 2>/dev/null || true
stress_pid=

# MADs per port and the sweep's MAD rate (its own perfdata, median of 5), system calls per port.
perf() { sed -n "s/.* $2=\\([0-9.]*\\).*/\\1/p" <<<"$1" | head -1; }
: >perf.tsv
for label in daemon direct; do
  cmd=${label}_cmd
  for _ in 1 2 3 4 5; do
    line=$(client ${!cmd} 2>/dev/null) || true
    line=${line%%$'\n'*}
    printf '%s\t%s\t%s\t%s\n' "$label" "$(perf "$line" mads)" "$(perf "$line" poll_time)" \
      "$(perf "$line" sweep_time)" >>perf.tsv
  done
  client strace -f -c -o "strace_$label.txt" ${!cmd} >/dev/null 2>&1 || true
done
client strace -f -c -o strace_peer.txt $data_peer >/dev/null 2>&1 || true
rates=()
for _ in 1 2 3; do
  rates+=("$(client "$bin/ibpm-bench-mad" --window 64 --rounds 5 2>/dev/null |
    sed -n 's/.*: \([0-9]*\) queries\/s.*/\1/p')")
done

# One node: check_ib_port against perfquery -x, check_ib_node against a perfquery loop.
client ibnetdiscover -p >ports.txt 2>/dev/null
lid=$(awk '$1 == "CA" && /cn0001/ {print $2; exit}' ports.txt)
leaf_lid=$(awk '$1 == "SW" && /leaf01/ {print $2; exit}' ports.txt)
for p in $(seq 1 36); do echo "perfquery -x $leaf_lid $p"; done >leaf_loop.sh
state=$disk/checks
client "$bin/check_ib_port" --cache "$tmp/fabric.cache" --state-dir "$state" -n "$lid" -p 1 >/dev/null 2>&1 || true
client "$bin/check_ib_node" --cache "$tmp/fabric.cache" --state-dir "$state" -n leaf01 >/dev/null 2>&1 || true
client hyperfine -N -i --warmup 3 --runs 30 --style basic --export-json "$out/sweep_speed_checks.json" \
  -n "perfquery: perfquery -x LID 1" "perfquery -x $lid 1" \
  -n "check_ib_port: check_ib_port -n LID -p 1" \
  "$bin/check_ib_port --cache $tmp/fabric.cache --state-dir $state -n $lid -p 1" \
  -n "leaf_loop: perfquery -x over leaf01's 36 ports" "sh $tmp/leaf_loop.sh" \
  -n "check_ib_node: check_ib_node -n leaf01" \
  "$bin/check_ib_node --cache $tmp/fabric.cache --state-dir $state -n leaf01" \
  >hyperfine_checks.log 2>&1 || { cat hyperfine_checks.log >&2; exit 1; }

python3 - "$out" "$ports" "${rates[*]}" perf.tsv <<'PY' | tee "$out/sweep_speed.txt"
import json, statistics, sys
out, ports, rates, perf_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def load(name):
    return {r["command"].split(": ", 1)[0]: r for r in json.load(open(f"{out}/{name}.json"))["results"]}
def calls(path):
    total = fs = 0
    fs_names = {"open", "openat", "close", "stat", "newfstatat", "fstat", "statx", "mmap", "munmap",
                "madvise", "fcntl", "flock", "rename", "unlink", "mkdir", "getdents64", "lseek"}
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[3].isdigit():
            if f[-1] == "total": total = int(f[3])
            elif f[-1] in fs_names: fs += int(f[3])
    return total, fs
print("check_ib_fabric, steady state, 648-host fat tree, 2,592 cabled ports, state on disk")
for label in ("quiet", "busy"):
    r = load(f"sweep_speed_{label}")
    peer = r["peer_data"]["median"]
    print(f"  {label}: " + ", ".join(f"{k} {v['median']:.3f} s" for k, v in r.items()))
    for ours in ("ours_daemon", "ours_direct"):
        print(f"    {ours}: {peer / r[ours]['median']:.2f}x ibqueryerrors --data "
              f"({r['peer_counters']['median'] / r[ours]['median']:.2f}x --counters)")
rows = [l.split("\t") for l in open(perf_path).read().split("\n") if l]
engine = statistics.median(int(x) for x in rates.split())
for label in ("daemon", "direct"):
    mine = [r for r in rows if r[0] == label]
    mads = statistics.median(float(r[1]) for r in mine)
    poll = statistics.median(float(r[2]) for r in mine)
    total, fs = calls(f"strace_{label}.txt")
    print(f"  {label}: {mads / ports:.2f} MADs/port; MAD rate {mads / poll:.0f}/s in the polling phase "
          f"= {100 * mads / poll / engine:.0f} % of ibpm-bench-mad --window 64 ({engine:.0f}/s); "
          f"system calls/port {total / ports:.1f} in all, {fs / ports:.2f} file-system")
total, fs = calls("strace_peer.txt")
print(f"  ibqueryerrors --data: system calls/port {total / ports:.1f} in all, {fs / ports:.2f} file-system")
c = load("sweep_speed_checks")
print(f"  check_ib_port {c['check_ib_port']['median'] * 1000:.1f} ms vs perfquery -x "
      f"{c['perfquery']['median'] * 1000:.1f} ms ({c['perfquery']['median'] / c['check_ib_port']['median']:.2f}x)")
print(f"  check_ib_node (36 ports) {c['check_ib_node']['median'] * 1000:.1f} ms vs perfquery loop "
      f"{c['leaf_loop']['median'] * 1000:.1f} ms ({c['leaf_loop']['median'] / c['check_ib_node']['median']:.1f}x)")
PY
