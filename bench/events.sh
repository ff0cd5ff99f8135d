#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How soon a dead cable reaches Nagios: ibpm-events against the sweep.
#
# The fabric is a simulated 2-level fat tree (648 hosts on 36-port switches by default) under
# ibsim, with OpenSM running as a daemon and loading the event plugin (libibpm_event_plugin.so).
# One sweep writes the topology and the first samples; then ibpm-events listens, and CABLES
# leaf-to-spine cables chosen at random (seeded) are unlinked one at a time on ibsim's console:
# for each, the time from the console command to the CRITICAL result of the leaf in the Nagios
# spool is measured, then the cable is linked again and its OK result awaited. OpenSM runs its own
# heavy sweep on every trap meanwhile, as on a real fabric. The median and 95th percentile are
# printed beside what the sweep alone gives: half a sweep interval on average (the cable goes down
# at a random time between two sweeps) plus the sweep's own duration, measured here too. The
# MADs of each re-poll are summed from the listener's log (mads=N of each re-poll's perfdata).
#
# Usage: bench/events.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built ibpm-events, check_ib_fabric, ibpm-sim and
#   the OpenSM event plugin (libopensm-dev installed).
#   IBPM_BENCH_HOSTS  hosts of the fat tree (default 648; 3888 with radix 36 is three levels)
#   IBPM_BENCH_CABLES cables unlinked (default 20)
#   IBPM_BENCH_INTERVAL the sweep interval to compare with, seconds (default 300, the timer's)
#   IBPM_BENCH_OUT    folder for the summary and the listener's log (default out/bench)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
need_programs opensm:opensm python3:python3
need_built ibpm-events check_ib_fabric ibpm-sim
plugin=$build/events/opensm-plugin/libibpm_event_plugin.so
[[ -f $plugin ]] || { echo "no $plugin: apt-get install libopensm-dev, then build" >&2; exit 1; }
hosts=${IBPM_BENCH_HOSTS:-648}
cables=${IBPM_BENCH_CABLES:-20}
interval=${IBPM_BENCH_INTERVAL:-300}

tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
pids=()
cleanup() {
  cp "$tmp/listener.log" "$out/events-listener.log" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp"
state=/var/tmp/ibpm-bench-events-state.$$
mkdir -p "$state" spool
trap 'cleanup; rm -rf "$state"' EXIT

echo "fabric: fat tree, $hosts hosts, 36-port switches; OpenSM as a daemon with the event plugin"
levels=2
((hosts > 648)) && levels=3  # radix 36: two levels hold 648 hosts
"$bin/ibpm-sim" generate --hosts "$hosts" --radix 36 --levels "$levels" -o fabric.net >/dev/null
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" --timeout 900 >/dev/null
client() { ( . "$tmp/sim/env" && exec "$@" ); }
sweep_args=(--state-dir "$state" --no-syslog --nagios-spool "$tmp/spool" -t 120)
start=$(date +%s.%N)
client "$bin/check_ib_fabric" "${sweep_args[@]}" >sweep.out || [[ $? -le 2 ]]
sweep_s=$(python3 -c "import time; print(f'{time.time() - $start:.2f}')")
sweep_mads=$(grep -o ' mads=[0-9]*' sweep.out | head -1 | cut -d= -f2)
echo "  one sweep: ${sweep_s} s, $sweep_mads MADs ($(head -1 sweep.out | cut -c1-60)...)"

( . "$tmp/sim/env" && exec "$bin/ibpm-events" --socket "$tmp/events.sock" \
    --status-file "$tmp/events.json" -- "$bin/check_ib_fabric" "${sweep_args[@]}" ) \
  >listener.log 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q 'listening on' listener.log && break; sleep 0.1; done
printf 'event_plugin_name ibpm_event_plugin\nevent_plugin_options ibpm_socket=%s\nforce_log_flush TRUE\n' \
  "$tmp/events.sock" >opensm.conf
( . "$tmp/sim/env" && LD_LIBRARY_PATH=$(dirname "$plugin") OSM_CACHE_DIR=$tmp \
    exec opensm -F "$tmp/opensm.conf" -f "$tmp/osm.log" ) >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 120); do grep -q 'SUBNET UP' osm.log 2>/dev/null && break; sleep 0.5; done
grep -q 'SUBNET UP' osm.log || { echo "OpenSM did not come up" >&2; exit 1; }
sleep 2

# The cables: leaf ports above the hosts (18 down, 18 up on 36-port leaves), at random.
python3 - "$cables" fabric.net >cables.txt <<'PY'
import random, re, sys
count, net = int(sys.argv[1]), open(sys.argv[2]).read()
ups = []
for block in net.split("\n\n"):
    m = re.match(r'Switch\s+\d+\s+"(leaf\d+)"', block.strip())
    if not m: continue
    for port, peer in re.findall(r'\[(\d+)\]\s+"(spine\d+)"', block):
        ups.append((m.group(1), int(port)))
random.seed(48)
for leaf, port in random.sample(ups, count):
    print(leaf, port)
PY

# wait_result HOST CODE SINCE_FILES: seconds until a new spool result of HOST with CODE.
latencies=()
while read -r leaf port; do
  ls spool >before.txt
  t0=$(date +%s.%N)
  "$bin/ibpm-sim" cmd --dir "$tmp/sim" "Unlink \"$leaf\"[$port]" >/dev/null
  seen=$(python3 - "$tmp/spool" before.txt "$leaf" 2 "$t0" <<'PY'
import os, sys, time
spool, before, host, code, t0 = sys.argv[1], set(open(sys.argv[2]).read().split()), sys.argv[3], sys.argv[4], float(sys.argv[5])
end = time.time() + 30
while time.time() < end:
    for name in os.listdir(spool):
        if name in before or name.endswith(".ok") or name.startswith("."): continue
        text = open(os.path.join(spool, name)).read()
        for block in text.split("### Nagios Service Check Result ###")[1:]:
            if f"\nhost_name={host}\n" in block and f"\nreturn_code={code}\n" in block:
                print(f"{os.path.getmtime(os.path.join(spool, name)) - t0:.4f}"); sys.exit(0)
    time.sleep(0.002)
print("timeout")
PY
)
  latencies+=("$seen")
  echo "  Unlink $leaf[$port]: CRITICAL in the spool after ${seen} s"
  "$bin/ibpm-sim" cmd --dir "$tmp/sim" "ReLink \"$leaf\"[$port]" >/dev/null
  sleep 3  # OpenSM's sweep and the OK re-poll
done <cables.txt

python3 - "$sweep_s" "$interval" "$(grep -o ' mads=[0-9]*' listener.log | cut -d= -f2 | paste -sd+ | bc)" \
  "$(grep -c 're-polling LID' listener.log)" \
  "$(grep -o ' ports_polled=[0-9]*' listener.log | cut -d= -f2 | paste -sd+ | bc)" \
  "${latencies[@]}" <<'PY' | tee "$out/events.txt"
import statistics, sys
sweep_s, interval, mads, repolls = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4]
ports = sys.argv[5]
values = sys.argv[6:]
bad = [v for v in values if v == "timeout"]
times = sorted(float(v) for v in values if v != "timeout")
p95 = times[min(len(times) - 1, int(round(0.95 * len(times) + 0.5)) - 1)] if times else float("nan")
print(f"ibpm-events: {len(times)} of {len(values)} cables CRITICAL in the spool; "
      f"median {statistics.median(times):.3f} s, 95th percentile {p95:.3f} s, max {times[-1]:.3f} s")
print(f"the sweep alone: {interval / 2:.0f} s on average (half of {interval:.0f} s) + {sweep_s:.2f} s a sweep")
print(f"re-polls: {repolls} (Unlink and ReLink), {mads} MADs in all for {ports} ports read, "
      f"{int(mads) / max(1, int(ports or 0)):.2f} a port (goal: at most 2)")
PY
