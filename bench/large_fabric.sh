#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A large fabric by hand (too slow for CI): a simulated 3-level fat tree on 36-port switches
# (3,888 hosts by default: 540 switches, 4,428 nodes, 23,328 cabled ports; 11,664 hosts give
# about 70,000 ports and take OpenSM over a minute), swept by check_ib_fabric under the open-file
# limit services get (ulimit -n 1024), state on disk, through rrdcached and with direct writes,
# against `ibqueryerrors --load-cache --data` on the same fabric in the same run: steady-state
# sweep time (median of IBPM_BENCH_RUNS), max RSS, open descriptors, MADs per port, process CPU
# (user + system) per port against the peer's, through a local rrdcached (unix socket), through a
# central store (rrdcached over TCP with -R -B, as docs/operators.md deploys it, without the TLS
# tunnel; and with --store-check-every 1) and writing the files directly, its memory per port
# beyond the topology, its heap allocations (with heaptrack, when installed),
# the sweep's MAD rate against the ceiling on the same
# fabric (`ibpm-bench-mad --window 64`: every cabled port's PortCounters, nothing else), and the disk
# the state takes per RRD layout; then the analyzers' times over the history of those sweeps
# (through rrdcached and reading the files directly; ibpm-congestion beside ibpm-utilization, which
# reads the same window) and a take-over of every port.
#
# Usage: bench/large_fabric.sh [BUILD_DIR]
#   IBPM_BENCH_HOSTS   hosts (default 3888)
#   IBPM_BENCH_DUMP    an ibnetdiscover dump to simulate instead of a generated tree (plain or .xz;
#                      e.g. ../shared/fixtures/real/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz)
#   IBPM_BENCH_RUNS    timed runs per command (default 5)
#   IBPM_BENCH_STATE   parent of the state directory (default /var/tmp: a disk)
#   IBPM_BENCH_LAYOUT  RRD layout options for the sweeps (default an hour at full resolution and a
#                      week of hours, 84 kB per port: "--rrd-full-hours 1 --rrd-hourly-days 7
#                      --rrd-daily-days 0"; the default layout's 0.9 MB per port, 21 GB for the
#                      3,888-host tree, is reported but not written)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
hosts=${IBPM_BENCH_HOSTS:-3888}
runs=${IBPM_BENCH_RUNS:-5}
read -ra layout <<<"${IBPM_BENCH_LAYOUT:---rrd-full-hours 1 --rrd-hourly-days 7 --rrd-daily-days 0}"
need_programs hyperfine ibqueryerrors:infiniband-diags rrdcached rrdtool python3
need_built check_ib_fabric ibpm-bench-mad ibpm-sim ibpm-topology ibpm-locality ibpm-utilization ibpm-congestion ibpm-routes ibpm-map ibpm-web
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }

tmp=$(mktemp -d /dev/shm/ibpm-large.XXXXXX)
disk=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-large-state.XXXXXX")
cleanup() {
  stop_rrdcached
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  rm -rf "$tmp" "$disk"
}
trap cleanup EXIT
cd "$tmp"
client() { ( . "$tmp/sim/env" && ulimit -n 1024 && exec "$@" ); }

if [[ -n ${IBPM_BENCH_DUMP:-} ]]; then
  case $IBPM_BENCH_DUMP in
    *.xz) xz -dc "$IBPM_BENCH_DUMP" >dump.ibnetdiscover ;;
    *) cp "$IBPM_BENCH_DUMP" dump.ibnetdiscover ;;
  esac
  "$bin/ibpm-topology" --cache dump.ibnetdiscover --write-net fabric.net >/dev/null
  echo "simulating $(basename "$IBPM_BENCH_DUMP")"
else
  "$bin/ibpm-sim" generate --hosts "$hosts" --radix 36 --levels 3 -o fabric.net
fi
start=$(date +%s.%N)
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" --timeout 900 >/dev/null  # OpenSM: minutes at 11,664 hosts
echo "ibsim + OpenSM: $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s"
client ibnetdiscover --cache "$tmp/fabric.cache" >/dev/null 2>&1

# The local daemon as packaging/systemd/ibpm-rrdcached.service runs it: its files fall due for
# writing spread over a minute (-z 60), not all at once 300 s after the first sweep.
start_rrdcached "$tmp/rrdcached.sock" -l "unix:$tmp/rrdcached.sock" -b "$disk" -j "$disk" \
  -w 300 -z 60 -f 3600 -p "$tmp/rrdcached.pid"
# The central store as docs/operators.md runs it (files made and named through it, under its base).
store_port=$(free_loopback_port)
mkdir -p "$disk/store" "$disk/store-journal"
start_rrdcached "127.0.0.1:$store_port" -O -R -B -b "$disk/store" -j "$disk/store-journal" \
  -w 300 -z 60 -f 3600 -l "127.0.0.1:$store_port" -p "$tmp/store.pid"

daemon_cmd="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/daemon --no-syslog -t 300 ${layout[*]} --rrdcached unix:$tmp/rrdcached.sock"
central_cmd="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/central --no-syslog -t 300 ${layout[*]} --rrdcached 127.0.0.1:$store_port"
direct_cmd="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $disk/direct --no-syslog -t 300 ${layout[*]}"
peer_cmd="ibqueryerrors --skip-sl --load-cache $tmp/fabric.cache --data"
# Processor time (user + system, seconds) a process has used so far: the store's and the
# simulator's share of a sweep, which run on the same cores as the sweep here (a deployed central
# store runs on its own host).
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"; }
ibsim_pid=$(cat "$tmp/sim/ibsim.pid")
declare -A server_pid=([daemon]=${rrdcached_pids[0]} [central]=${rrdcached_pids[1]})
for label in daemon central direct; do
  cmd=${label}_cmd
  start=$(date +%s.%N)
  client ${!cmd} >first_$label.txt 2>&1 || true
  echo "$label: first sweep (RRD files made): $(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }') s: $(head -c 100 first_$label.txt)"
  client ${!cmd} >/dev/null 2>&1 || true
  # One steady sweep under GNU time, its descriptors sampled while it runs.
  server=${server_pid[$label]:-}
  server_before=$([[ -n $server ]] && cpu_seconds "$server" || echo 0)
  ibsim_before=$(cpu_seconds "$ibsim_pid")
  ( . "$tmp/sim/env" && ulimit -n 1024 && exec /usr/bin/time -f "%U %S %M" -o rss_$label.txt ${!cmd} ) \
    >steady_$label.txt 2>/dev/null &
  pid=$! peak=0
  while kill -0 "$pid" 2>/dev/null; do
    for child in $(pgrep -P "$pid") "$pid"; do
      n=$(ls "/proc/$child/fd" 2>/dev/null | wc -l) || n=0
      ((n > peak)) && peak=$n
    done
    sleep 0.01
  done
  wait "$pid" || true
  echo "$label: steady sweep: $(head -c 160 steady_$label.txt) ... max RSS $(tail -1 rss_$label.txt | cut -d" " -f3) KB, peak descriptors $peak"
  echo "$label: processor time beside that sweep: ibsim $(awk -v a="$ibsim_before" -v b="$(cpu_seconds "$ibsim_pid")" 'BEGIN { printf "%.2f", b - a }') s" \
    "$([[ -n $server ]] && awk -v a="$server_before" -v b="$(cpu_seconds "$server")" 'BEGIN { printf ", its rrdcached %.2f s", b - a }')"
done
# Memory beyond the topology: a steady sweep of one port in a thousand (--shard 1/1000) loads the
# whole topology but keeps almost nothing per port; the full sweeps' max RSS less its, per port.
for _ in first steady; do
  ( . "$tmp/sim/env" && ulimit -n 1024 && exec /usr/bin/time -f "%U %S %M" -o rss_shard.txt \
    ${daemon_cmd/"$disk/daemon"/"$disk/shard"} --shard 1/1000 ) >/dev/null 2>&1 || true
done
ports=$(sed -n 's/.* ports=\([0-9]*\).*/\1/p' steady_daemon.txt | head -1)
shard_rss=$(tail -1 rss_shard.txt | cut -d" " -f3)
for label in daemon central; do
  echo "$label: memory beyond the topology: $(awk -v f="$(tail -1 rss_$label.txt | cut -d" " -f3)" \
    -v s="$shard_rss" -v p="${ports:-1}" 'BEGIN { printf "%.0f bytes per port", (f - s) * 1024 / p }')" \
    "(max RSS less a --shard 1/1000 sweep's, $shard_rss KB)"
done
# Heap allocations of one steady sweep through the central store, counted by heaptrack when it is
# installed: all of them, and the sweep's own (the simulator's shim, libumad2sim, allocates about
# 3 per MAD, 6.5 per port, which hardware does not).
if command -v heaptrack >/dev/null && command -v heaptrack_print >/dev/null; then
  client heaptrack -o "$tmp/heap" $central_cmd >/dev/null 2>&1 || true
  allocations=$(heaptrack_print -f "$tmp"/heap.*zst 2>/dev/null |
    sed -n 's/^calls to allocation functions: \([0-9]*\).*/\1/p')
  own=$("$here/../scripts/own-allocations.sh" "$tmp"/heap.*zst || true)
  swept=$(sed -n 's/.* ports=\([0-9]*\).*/\1/p' steady_central.txt | head -1)
  per_port() { awk -v a="${1:-0}" -v p="${swept:-1}" 'BEGIN { printf "%.1f", a / p }'; }
  echo "central: one steady sweep under heaptrack: ${allocations:-?} heap allocations" \
    "($(per_port "$allocations") per port), the sweep's own ${own:-?} ($(per_port "$own") per port)"
fi
( . "$tmp/sim/env" && exec /usr/bin/time -f "%U %S %M" -o rss_peer.txt $peer_cmd ) >peer.txt 2>&1 || true
echo "peer: $(grep -m1 'ports checked' peer.txt || tail -1 peer.txt); max RSS $(tail -1 rss_peer.txt | cut -d' ' -f3) KB"
# The ceiling on this fabric: our MAD engine asking every cabled port's PortCounters and nothing
# else. It swings by half between moments of the same run on this shared machine (55,066 and
# 96,457/s in two runs of the same day), so it is measured three times before the sweeps and
# three times after them, and the median of the six is the ceiling; all six are printed.
ceiling_runs() {
  for _ in 1 2 3; do
    client "$bin/ibpm-bench-mad" --window 64 --rounds 3 2>/dev/null |
      sed -n 's/.*: \([0-9]*\) queries\/s.*/\1/p'
  done
}
ceiling_before=$(ceiling_runs | tr '\n' ' ')

( . "$tmp/sim/env" && exec hyperfine -N -i --warmup 1 --runs "$runs" --style basic \
    --export-json "$out/large_fabric.json" \
    -n "peer: ibqueryerrors --load-cache --data" "$peer_cmd" \
    -n "daemon: check_ib_fabric --rrdcached unix:SOCKET" "$daemon_cmd" \
    -n "central: check_ib_fabric --rrdcached HOST:PORT" "$central_cmd" \
    -n "central1: check_ib_fabric --rrdcached HOST:PORT --store-check-every 1" \
    "$central_cmd --store-check-every 1" \
    -n "direct: check_ib_fabric" "$direct_cmd" ) >hyperfine.log 2>&1 || { cat hyperfine.log >&2; exit 1; }
ceiling_after=$(ceiling_runs | tr '\n' ' ')
ceiling=$(printf '%s\n' $ceiling_before $ceiling_after | sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
echo "ceiling: ibpm-bench-mad --window 64: ${ceiling:-?} queries/s (median of: before the sweeps $ceiling_before; after them $ceiling_after)"

# The MAD phase alone (what the ceiling measures): the rate the sweep's own -v line gives for the
# time its MAD engine ran, median of the same number of steady sweeps.
engine_rate() {  # COMMAND...
  for _ in $(seq "$runs"); do
    client "$@" -v 2>/dev/null | sed -n 's/.*the engine ran \([0-9.]*\) s (\([0-9]*\) MADs\/s).*/\2 \1/p'
  done | sort -n | awk '{ line[NR] = $0 } END { print line[int((NR + 1) / 2)] }'
}
for label in daemon central central1; do
  case $label in
    central1) set -- $central_cmd --store-check-every 1 ;;
    *) cmd=${label}_cmd; set -- ${!cmd} ;;
  esac
  read -r rate seconds <<<"$(engine_rate "$@")"
  echo "$label: the MAD engine's own phase (median of $runs): ${seconds:-?} s, ${rate:-?} MADs/s," \
    "$(awk -v r="${rate:-0}" -v c="${ceiling:-0}" 'BEGIN { if (c > 0) printf "%.0f", 100 * r / c; else printf "?" }') % of the ceiling"
done

# The history those sweeps left (several minutes of them), read by the analyzers through the
# daemon (one pipelined exchange of FETCH commands) and from the files directly (several threads),
# and a collector with no sample record of its own taking over every port from the files.
site=$tmp/site
window=${IBPM_BENCH_WINDOW:-900}
# ibpm-congestion follows the routes: the forwarding tables read once into each state directory.
for state in "$disk/daemon" "$disk/direct"; do
  client "$bin/ibpm-routes" --cache "$tmp/fabric.cache" --state-dir "$state" --refresh -t 300 \
    >/dev/null 2>&1 || echo "ibpm-routes --refresh into $state failed: congestion reads no routes" >&2
done
daemon_hist="--state-dir $disk/daemon --rrdcached unix:$tmp/rrdcached.sock --window $window"
direct_hist="--state-dir $disk/direct --window $window"
( hyperfine -N -i --runs 3 --style basic --export-json "$out/large_fabric_history.json" \
    -n "locality: daemon" "$bin/ibpm-locality --cache $tmp/fabric.cache $daemon_hist" \
    -n "locality: direct" "$bin/ibpm-locality --cache $tmp/fabric.cache $direct_hist" \
    -n "utilization: daemon" "$bin/ibpm-utilization --cache $tmp/fabric.cache $daemon_hist" \
    -n "utilization: direct" "$bin/ibpm-utilization --cache $tmp/fabric.cache $direct_hist" \
    -n "congestion: daemon" "$bin/ibpm-congestion --cache $tmp/fabric.cache $daemon_hist" \
    -n "congestion: direct" "$bin/ibpm-congestion --cache $tmp/fabric.cache $direct_hist" \
    -n "map: daemon" "$bin/ibpm-map --cache $tmp/fabric.cache $daemon_hist -o $tmp/map.svg" \
    -n "web --graphs none: daemon" "$bin/ibpm-web --cache $tmp/fabric.cache $daemon_hist --graphs none -o $site" \
    -n "web --graphs none: direct" "$bin/ibpm-web --cache $tmp/fabric.cache $direct_hist --graphs none -o $site" ) \
  >hyperfine_history.log 2>&1 || { cat hyperfine_history.log >&2; exit 1; }
( . "$tmp/sim/env" && ulimit -n 1024 && exec hyperfine -N -i --runs 3 --style basic \
    --export-json "$out/large_fabric_takeover.json" \
    --prepare "rm -rf $disk/daemon/samples" -n "take-over: daemon" "$daemon_cmd" \
    --prepare "rm -rf $disk/central/samples" -n "take-over: central store" "$central_cmd" ) \
  >hyperfine_takeover.log 2>&1 || { cat hyperfine_takeover.log >&2; exit 1; }
client ${central_cmd} >takeover_after.txt 2>&1 || true
echo "after the take-over, the next sweep: $(head -c 160 takeover_after.txt)"
python3 - "$out/large_fabric_history.json" "$out/large_fabric_takeover.json" <<'PY' | tee "$out/large_fabric_history.txt"
import json, sys
for path in sys.argv[1:]:
    for x in json.load(open(path))["results"]:
        print(f"{x['command']:28} median {x['median']:.2f} s")
PY

# Disk per port for each layout: one file made by rrdtool with the same archives.
size_of() {  # FULL_HOURS HOURLY_DAYS DAILY_DAYS
  local f=$tmp/layout.rrd args=()
  for ds in $(seq 23); do args+=("DS:d$ds:GAUGE:900:U:U"); done
  for cf in AVERAGE MAX; do
    args+=("RRA:$cf:0.5:1:$(($1 * 60 > 1440 ? 1440 : $1 * 60))")
    (($2 > 0)) && args+=("RRA:$cf:0.5:60:$(($2 * 24))")
    (($3 > 0)) && args+=("RRA:$cf:0.5:1440:$3")
  done
  rrdtool create "$f" --step 60 "${args[@]}"
  stat -c %s "$f"
}
ports=$(sed -n 's/.* ports=\([0-9]*\).*/\1/p' steady_daemon.txt | head -1)
mads_of() { sed -n 's/.* mads=\([0-9]*\).*/\1/p' "steady_$1.txt" | head -1; }
python3 - "$out/large_fabric.json" "$ports" "$(size_of 24 28 365)" "$(size_of 24 7 0)" \
  "$(size_of 1 7 0)" "$(du -sb "$disk/daemon" | cut -f1)" "${ceiling:-0}" \
  "$(mads_of daemon)" "$(mads_of central)" <<'PY' | tee "$out/large_fabric.txt"
import json, sys
path, ports, default, day_week, hour_week, used, ceiling, mads, central_mads = sys.argv[1], int(sys.argv[2]), *map(int, (a or 0 for a in sys.argv[3:]))
r = {x["command"].split(": ", 1)[0]: x for x in json.load(open(path))["results"]}
peer = r["peer"]["median"]
for k in ("peer", "daemon", "central", "central1", "direct"):
    print(f"{k:9} median {r[k]['median']:.3f} s  ({peer / r[k]['median']:.2f}x ibqueryerrors)")
for k, n in (("daemon", mads), ("central", central_mads), ("central1", central_mads)):
    if n and ceiling:
        rate = n / r[k]["median"]
        print(f"{k}: {n} MADs ({n / ports:.2f} per port) at {rate:.0f} MADs/s: {100 * rate / ceiling:.0f} % of the ceiling ({ceiling}/s)")
def cpu(label):
    user, system, rss = open(f"rss_{label}.txt").read().split()[-3:]
    return float(user) + float(system), int(rss)
peer_cpu, peer_rss = cpu("peer")
for k in ("daemon", "central", "direct"):
    c, rss = cpu(k)
    print(f"{k:7} one steady sweep: CPU {c:.2f} s ({1e6 * c / ports:.1f} us per port, {c / max(peer_cpu, 0.01):.2f}x the peer's {peer_cpu:.2f} s), max RSS {rss / 1024:.1f} MB (peer {peer_rss / 1024:.1f} MB)")
gb = lambda b: f"{b / 1e9:.1f} GB"
print(f"state on disk for {ports} ports: {gb(used)} measured with the bench's layout")
print(f"  per port: default layout (a day of minutes, 4 weeks of hours, a year of days) {default / 1e6:.2f} MB"
      f" = {gb(default * ports)}; a day of minutes + a week of hours {day_week / 1e6:.2f} MB = {gb(day_week * ports)};"
      f" an hour of minutes + a week of hours {hour_week / 1e6:.3f} MB = {gb(hour_week * ports)}")
PY
