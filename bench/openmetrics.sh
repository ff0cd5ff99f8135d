#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What --openmetrics costs a sweep of a large fabric: the simulated 3-level fat tree of 3,888 hosts
# on 36-port switches (540 switches, 23,328 cabled ports; IBPM_BENCH_HOSTS to change) under ibsim,
# swept by check_ib_fabric through a local rrdcached (as the packages run it) under the open-file
# limit services get, state and the OpenMetrics file on disk. Steady sweeps without and with
# `--openmetrics FILE` alternate, IBPM_BENCH_RUNS of each (default 3, in the order AB BA AB ...),
# after the sweeps that make the RRD files and the first file, so whatever else the machine runs
# slows both alike; the ratios compare medians measured in the same run.
# Reported: the file's size and its series (sample lines), the ports it covers and the most series
# of one port; the time the sweep spends writing it (its own -v line) against the wall time of the
# sweep without it; wall time, CPU time (user + system) and max RSS of a sweep with and without it
# (medians, their ratio and difference); the load average before and after (other work on the
# machine: the ratio and the counts are the figures to quote, not the seconds).
#
# Usage: bench/openmetrics.sh [BUILD_DIR]
#   IBPM_BENCH_HOSTS   hosts (default 3888)
#   IBPM_BENCH_RUNS    sweeps of each kind (default 3)
#   IBPM_BENCH_STATE   parent of the state directory and the file (default /var/tmp: a disk)
#   IBPM_BENCH_SERIES  --openmetrics-series (default "default"; "all" for every counter)
#   IBPM_BENCH_LAYOUT  RRD layout options (default "--rrd-full-hours 1 --rrd-hourly-days 7
#                      --rrd-daily-days 0", as bench/large_fabric.sh)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
hosts=${IBPM_BENCH_HOSTS:-3888}
runs=${IBPM_BENCH_RUNS:-3}
series=${IBPM_BENCH_SERIES:-default}
read -ra layout <<<"${IBPM_BENCH_LAYOUT:---rrd-full-hours 1 --rrd-hourly-days 7 --rrd-daily-days 0}"
need_programs ibnetdiscover:infiniband-diags rrdcached python3
need_built check_ib_fabric ibpm-sim
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time missing: apt-get install time" >&2; exit 1; }

tmp=$(mktemp -d /dev/shm/ibpm-openmetrics.XXXXXX)
disk=$(mktemp -d "${IBPM_BENCH_STATE:-/var/tmp}/ibpm-openmetrics-state.XXXXXX")
cleanup() {
  stop_rrdcached
  "$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true
  rm -rf "$tmp" "$disk"
}
trap cleanup EXIT
cd "$tmp"

"$bin/ibpm-sim" generate --hosts "$hosts" --radix 36 --levels 3 -o fabric.net
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" --timeout 900 >/dev/null
( . "$tmp/sim/env" && exec ibnetdiscover --cache "$tmp/fabric.cache" ) >/dev/null 2>&1
start_rrdcached "$tmp/rrdcached.sock" -l "unix:$tmp/rrdcached.sock" -b "$disk" -j "$disk" \
  -w 300 -z 60 -f 3600 -p "$tmp/rrdcached.pid"
mkdir -p "$disk/textfile"
prom=$disk/textfile/ibpm.prom
# -v: the sweep says how long writing the file took ("OpenMetrics file: N bytes written in S s").
sweep=("$bin/check_ib_fabric" --cache "$tmp/fabric.cache" --state-dir "$disk/state" --no-syslog
       -t 300 "${layout[@]}" --rrdcached "unix:$tmp/rrdcached.sock" -v)
with=(--openmetrics "$prom" --openmetrics-series "$series")

# One sweep, timed by GNU time: "KIND wall user system max_rss_kb write_seconds first_line" on
# stdout (write_seconds 0 without the file).
run() {  # KIND ARGS...
  local kind=$1
  shift
  ( . "$tmp/sim/env" && ulimit -n 1024 && exec /usr/bin/time -f "%e %U %S %M" -o "$tmp/time.txt" \
      "${sweep[@]}" "$@" ) >"$tmp/out.txt" 2>/dev/null || true
  grep -q '^IB FABRIC \(OK\|WARNING\|CRITICAL\)' "$tmp/out.txt" ||
    { echo "the sweep failed: $(head -c 300 "$tmp/out.txt")" >&2; exit 1; }
  local wrote
  wrote=$(sed -n 's/.*OpenMetrics file: [0-9]* bytes written in \([0-9.]*\) s.*/\1/p' "$tmp/out.txt")
  echo "$kind $(tail -1 "$tmp/time.txt") ${wrote:-0} $(head -1 "$tmp/out.txt" | cut -d'|' -f1)"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
run first >/dev/null      # the RRD files made
run steady >/dev/null
run first-file "${with[@]}" >/dev/null
: >"$tmp/runs.txt"
for round in $(seq "$runs"); do
  if ((round % 2)); then order=(without with); else order=(with without); fi
  for kind in "${order[@]}"; do
    if [[ $kind == with ]]; then run with "${with[@]}"; else run without; fi
  done | tee -a "$tmp/runs.txt"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

size=$(stat -c %s "$prom")
samples=$(grep -vc '^#' "$prom")
port_series=$(sed -n 's/^ibpm_port_[^{]*{node_guid="\([^"]*\)",port="\([^"]*\)".*/\1 \2/p' "$prom" |
  sort | uniq -c | sort -n)
ports=$(wc -l <<<"$port_series")
most=$(tail -1 <<<"$port_series" | awk '{ print $1 }')
python3 - "$tmp/runs.txt" "$size" "$samples" "$ports" "$most" "$series" "$load_before" \
  "$load_after" "$(nproc)" <<'PY' | tee "$out/openmetrics.txt"
import statistics, sys
path, size, samples, ports, most, series, before, after, cores = sys.argv[1:]
size, samples, ports, most = map(int, (size, samples, ports, most))
runs = {"with": [], "without": []}
for line in open(path):
    kind, wall, user, system, rss, wrote = line.split()[:6]
    runs[kind].append((float(wall), float(user) + float(system), int(rss), float(wrote)))
med = {k: [statistics.median(r[i] for r in v) for i in range(4)] for k, v in runs.items()}
print(f"--openmetrics-series {series}: {size:,} bytes ({size / 1e6:.1f} MB), {samples:,} series, "
      f"{ports:,} ports ({samples / ports:.1f} series and {size / ports:,.0f} bytes a port; "
      f"at most {most} series a port)")
for i, what, unit in ((0, "wall time", "s"), (1, "CPU time (user + system)", "s"),
                      (2, "max RSS", "kB")):
    w, wo = med["with"][i], med["without"][i]
    fmt = (lambda v: f"{v:.2f} {unit}") if unit == "s" else (lambda v: f"{v / 1024:.1f} MB")
    print(f"{what:25} with {fmt(w)}, without {fmt(wo)}: ratio {w / wo:.2f} "
          f"(+{fmt(w - wo)}); medians of {len(runs['with'])} each")
wrote = med["with"][3]
# Each sweep with the file against itself without the write: the least exposed to the load
# changing between processes.
own = statistics.median(t / (w - t) for w, c, r, t in runs["with"])
print(f"writing the file (the sweep's own -v line): {wrote:.3f} s; {100 * own:.0f} % of the rest "
      f"of the same sweep, {100 * wrote / med['without'][0]:.0f} % of the wall time of the sweeps "
      f"without it ({med['without'][0]:.2f} s); medians of {len(runs['with'])}")
print(f"load average before {before}, after {after} on {cores} cores (other work shares them)")
for kind in ("without", "with"):
    print(f"  {kind:7} " + "; ".join(f"{w:.2f} s wall, {c:.2f} s CPU, {r / 1024:.1f} MB"
                                    + (f", written in {t:.3f} s" if kind == "with" else "")
                                    for w, c, r, t in runs[kind]))
PY
