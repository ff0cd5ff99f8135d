#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job on a simulated fabric, as it runs on a real one: a fat tree (ibsim + one OpenSM
# sweep) is discovered and its baseline saved; one cable then trains at 1x; jobs with known
# traffic locality run while check_ib_fabric sweeps the fabric and two ports collect symbol
# errors; then the reports (locality, utilization), the health map, the dashboard and the Nagios
# configuration are made from the sweeps' history, and the checks are shown as Nagios shows them.
# Stops everything it started (also on failure or Ctrl-C).
#
# Usage: scripts/demo.sh [--hosts N] [--radix R] [--levels 2|3] [--out DIR] [--build-dir DIR]
#                        [--sweeps N] [--interval SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

hosts=288 radix=24 levels=2 out=$root/out/demo build_dir=build sweeps=6 interval=3
usage="usage: $0 [--hosts N] [--radix R] [--levels 2|3] [--out DIR] [--build-dir DIR]
                 [--sweeps N] [--interval SECONDS]
  defaults: --hosts $hosts --radix $radix --levels $levels --out out/demo --build-dir build
            --sweeps $sweeps --interval $interval"
while [ $# -gt 0 ]; do
  case "$1" in
    --hosts) hosts=$2; shift ;;
    --radix) radix=$2; shift ;;
    --levels) levels=$2; shift ;;
    --out) out=$2; shift ;;
    --build-dir) build_dir=$2; shift ;;
    --sweeps) sweeps=$2; shift ;;
    --interval) interval=$2; shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done
# The jobs below take leaves 1..12, each with radix/2 hosts.
per_leaf=$((radix / 2))
leaves=$(((hosts + per_leaf - 1) / per_leaf))
if [ "$leaves" -lt 12 ] || [ "$sweeps" -lt 3 ]; then
  echo "demo: the jobs need 12 leaves (--hosts >= 12 x radix/2 = $((12 * per_leaf)));" \
       "the window, 3 sweeps" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)

# Progress: one line per step, and the time each step took (listed at the end).
step_names=() step_times=() step_started=$SECONDS demo_started=
step() {
  if [ ${#step_names[@]} -gt 0 ]; then step_times+=($((SECONDS - step_started))); fi
  step_names+=("$*")
  step_started=$SECONDS
  printf '\n==> %s\n' "$*"
}

step "Installing what is missing"
scripts/install-deps.sh

step "Building ($build_dir/)"
# A new build folder is configured as scripts/test.sh configures it (scripts/configure.sh), so the
# test suite then builds only what the demo did not. A folder configured before keeps its settings.
if [ -f "$build_dir/CMakeCache.txt" ]; then
  cmake -S . -B "$build_dir" >/dev/null
else
  scripts/configure.sh "$build_dir" >/dev/null
fi
cmake --build "$build_dir" -j "$(nproc)" --target ibpm-sim ibpm-topology check_ib_topology \
  check_ib_port check_ib_node check_ib_fabric ibpm-locality ibpm-utilization ibpm-map ibpm-web \
  ibpm-nagios-config >/dev/null
bin=$(cd "$build_dir/bin" && pwd)
demo_started=$SECONDS

sim=$out/sim state=$out/state
cleanup() { "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true; }
cleanup
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
rm -rf "$state" "$out/graphs" "$out/site" "$out/nagios"
mkdir -p "$state"

on_fabric() { "$bin/ibpm-sim" exec --dir "$sim" -- "$@" 2>/dev/null; }
as_nagios() {  # runs a check and prints what Nagios shows: status, long output, state
  local rc=0 text
  text=$(on_fabric "$@") || rc=$?
  # The perfdata after '|' goes to graphs, not to the screen: counted, not printed.
  local status=${text%%$'\n'*} perf=
  if [[ $status == *" | "* ]]; then perf=${status#* | }; fi
  sed '1s/ | .*//' <<<"$text"
  local states=(OK WARNING CRITICAL UNKNOWN)
  echo "    (exit $rc: ${states[$rc]:-UNKNOWN}; perfdata: $(wc -w <<<"$perf") values)"
}
host() { printf 'cn%04d' $(((($1) - 1) * per_leaf + ($2))); }  # host I of leaf N
leaf() { printf 'leaf%02d' "$1"; }

# The degraded cable: leaf01's last uplink; the symbol errors: a host port and an uplink of leaf03.
degraded_node=leaf01 degraded_port=$radix
errors_node=leaf03 errors_ports=(2 $((per_leaf + 2))) errors_steps=(50 5)

step "Generating a $levels-level fat tree of $hosts hosts (radix $radix), as installed and with one cable at 1x"
"$bin/ibpm-sim" generate --hosts "$hosts" --radix "$radix" --levels "$levels" \
  -o "$out/fabric-installed.net"
"$bin/ibpm-sim" generate --hosts "$hosts" --radix "$radix" --levels "$levels" \
  --degrade "$degraded_node[$degraded_port]=1x" -o "$out/fabric.net" >/dev/null
echo "$out/fabric.net: the same, with $degraded_node[$degraded_port] trained at 1x on both ends"

step "The fabric as installed: starting it, discovering it, saving the baseline"
"$bin/ibpm-sim" start "$out/fabric-installed.net" --dir "$sim" >/dev/null
as_nagios "$bin/check_ib_topology" --write-baseline "$state/baseline.cache"
"$bin/ibpm-sim" stop --dir "$sim" >/dev/null

step "A cable degrades: the simulation restarts with $degraded_node[$degraded_port] at 1x (GUIDs and LIDs stay)"
"$bin/ibpm-sim" start "$out/fabric.net" --dir "$sim"
on_fabric "$bin/ibpm-topology" --write-dump "$out/fabric.ibnetdiscover"

step "Writing the jobs' flows (jobs.flows) and what their locality must be"
flows=$out/jobs.flows
{
  echo "# FROM TO RATE (octets per second) - ibpm-sim traffic sets the counters these flows raise"
  echo "# job A: a ring inside $(leaf 2)"
  for i in $(seq 1 "$per_leaf"); do echo "$(host 2 "$i") $(host 2 $((i % per_leaf + 1))) 2GB/s"; done
  echo "# job B: pairs across $(leaf 3) and $(leaf 4), more one way than back"
  for i in $(seq 1 "$per_leaf"); do
    echo "$(host 3 "$i") $(host 4 "$i") 1.5GB/s"
    echo "$(host 4 "$i") $(host 3 "$i") 1GB/s"
  done
  echo "# job C: a ring inside $(leaf 5); half its hosts also send to $(leaf 6)"
  for i in $(seq 1 "$per_leaf"); do echo "$(host 5 "$i") $(host 5 $((i % per_leaf + 1))) 1GB/s"; done
  for i in $(seq 1 $((per_leaf / 2))); do echo "$(host 5 "$i") $(host 6 "$i") 1GB/s"; done
  echo "# job D: three checkpoint streams, each over its own uplinks"
  echo "$(host 7 1) $(host 10 1) 12.5GB/s"
  echo "$(host 8 1) $(host 11 1) 17.5GB/s"
  echo "$(host 9 1) $(host 12 1) 21GB/s"
} >"$flows"
# Each leaf's locality as the flows imply it: gen/con what its hosts send/receive, out/in what
# crosses its border; l = 1 - (out + in) / (gen + con).
expected_locality() {
  awk -v d="$per_leaf" '
    function leaf(h) { return sprintf("leaf%02d", int((substr(h, 3) - 1) / d) + 1) }
    function rate(r) { sub(/B\/s$/, "", r); return r ~ /G$/ ? r * 1e9 : r }
    /^#/ || NF < 3 { next }
    { f = leaf($1); t = leaf($2); r = rate($3); seen[f]; seen[t]
      gen[f] += r; con[t] += r; if (f != t) { out[f] += r; inn[t] += r } }
    END { for (s in seen) printf "%s %.2f\n", s, 1 - (out[s] + inn[s]) / (gen[s] + con[s]) }
  ' "$flows" | sort
}
cat <<EOF
  job A  $(leaf 2): a ring of its $per_leaf hosts at 2 GB/s each: all local
  job B  $(leaf 3) <-> $(leaf 4): $per_leaf pairs, 1.5 GB/s one way and 1 GB/s back: nothing local
  job C  $(leaf 5): a ring at 1 GB/s, and $((per_leaf / 2)) of its hosts send 1 GB/s to $(leaf 6): mostly local
  job D  $(host 7 1) -> $(host 10 1) 12.5 GB/s, $(host 8 1) -> $(host 11 1) 17.5 GB/s, $(host 9 1) -> $(host 12 1) 21 GB/s:
         busy links at 50 %, 70 % and 84 % of a 4x HDR link (25 GB/s)
  locality each leaf must show (l = 1 - (out + in) / (gen + con)):
EOF
expected_locality | awk '{ printf "    %s  l = %s\n", $1, $2 }'

sweep_args=(--state-dir "$state" --cache "$state/baseline.cache" --rrd-step 1 --no-syslog
            --events-file "$out/events.log")
errors=(0 0)
raise_errors() {  # the two ports' symbol errors rise a little more
  local cmds=() i
  for i in 0 1; do
    errors[i]=$((errors[i] + errors_steps[i]))
    cmds+=("PerformanceSet \"$errors_node\"[${errors_ports[i]}] PortCounters.SymbolErrorCounter=${errors[i]}")
  done
  "$bin/ibpm-sim" cmd --dir "$sim" "${cmds[@]}" >/dev/null
}
status_line() { head -n 1 | sed 's/ | .*//'; }

step "Monitoring: a first sweep (before the jobs), then $sweeps sweeps ${interval} s apart with the jobs running"
echo "  each: ibpm-sim traffic (counters = rate x time since the jobs started), symbol errors on"
echo "  $errors_node[${errors_ports[0]}] (+${errors_steps[0]}) and $errors_node[${errors_ports[1]}] (+${errors_steps[1]}), then check_ib_fabric --state-dir state"
echo "  --cache state/baseline.cache --rrd-step 1 (the sweep judges widths against the baseline)"
rm -f "$out/events.log" "$sim/traffic"
rc=0
out_text=$(on_fabric "$bin/check_ib_fabric" "${sweep_args[@]}") || rc=$?
echo "  sweep 0/$sweeps (exit $rc): $(status_line <<<"$out_text")"
window_start=
for k in $(seq 1 "$sweeps"); do
  sleep "$interval"
  traffic=$("$bin/ibpm-sim" traffic --dir "$sim" "$flows")
  raise_errors
  rc=0
  out_text=$(on_fabric "$bin/check_ib_fabric" "${sweep_args[@]}") || rc=$?
  echo "  sweep $k/$sweeps (exit $rc): $(status_line <<<"$out_text")"
  echo "      ${traffic#traffic: }"
  # The history analysed starts after the second sweep of the jobs: the first interval holds
  # the jobs' start, not their steady rates.
  if [ "$k" -eq 2 ]; then window_start=$(($(date +%s) + 1)); fi
done
window=$(($(date +%s) - window_start))

step "Reports over the last $window s (the steady sweeps): locality, utilization, map, dashboard, Nagios configuration"
analysis=(--cache "$out/fabric.ibnetdiscover" --state-dir "$state" --window "$window")
echo "--- ibpm-locality (locality.txt)"
"$bin/ibpm-locality" "${analysis[@]}" | tee "$out/locality.txt"
"$bin/ibpm-locality" "${analysis[@]}" --format csv >"$out/locality.csv"
echo "--- locality of the jobs' leaves: what the flows imply, what was measured"
expected_locality | while read -r set want; do
  got=$(awk -F, -v s="$set" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
                            $c["set"] == s { print $c["l"] }' "$out/locality.csv")
  printf '  %-8s expected l = %s  measured l = %s\n' "$set" "$want" \
    "$(awk -v l="$got" 'BEGIN { if (l == "") print "?"; else printf "%.2f", (l < 0.005 && l > -0.005) ? 0 : l }')"
done
echo "--- ibpm-utilization: the 10 busiest directions (utilization.txt; profiles in graphs/)"
"$bin/ibpm-utilization" "${analysis[@]}" --top 10 --graph-dir "$out/graphs" | tee "$out/utilization.txt"
echo "--- ibpm-map: map.svg, map.png"
"$bin/ibpm-map" "${analysis[@]}" --baseline "$state/baseline.cache" -o "$out/map.svg"
"$bin/ibpm-map" "${analysis[@]}" --baseline "$state/baseline.cache" -o "$out/map.png"
echo "--- ibpm-web: site/"
"$bin/ibpm-web" "${analysis[@]}" --baseline "$state/baseline.cache" -o "$out/site"
echo "--- ibpm-nagios-config: nagios/"
"$bin/ibpm-nagios-config" --format nagios --cache "$out/fabric.ibnetdiscover" --state-dir "$state" \
  -o "$out/nagios"

step "The checks as Nagios shows them (each after a few seconds more of jobs and errors)"
next_round() { sleep 2; "$bin/ibpm-sim" traffic --dir "$sim" "$flows" >/dev/null; raise_errors; }
checks=(--state-dir "$state" --cache "$state/baseline.cache")
next_round
echo "--- check_ib_fabric (the whole fabric, every few minutes)"
as_nagios "$bin/check_ib_fabric" "${sweep_args[@]}"
next_round
echo "--- check_ib_node -n $errors_node (symbol errors on two of its ports)"
as_nagios "$bin/check_ib_node" -n "$errors_node" "${checks[@]}"
echo "--- check_ib_port -n $degraded_node -p $degraded_port (the cable at 1x)"
as_nagios "$bin/check_ib_port" -n "$degraded_node" -p "$degraded_port" "${checks[@]}"
echo "--- check_ib_topology --baseline (the fabric against the one installed)"
as_nagios "$bin/check_ib_topology" --baseline "$state/baseline.cache"

step "Stopping the simulated fabric"
"$bin/ibpm-sim" stop --dir "$sim"
trap - EXIT
step_times+=($((SECONDS - step_started)))

printf '\n==> Outputs in %s\n' "$out"
cat <<EOF
  site/index.html        the dashboard: open it with a browser
  map.svg, map.png       the fabric's health map: utilization, errors, locality (SVG: tooltips, links)
  locality.txt (.csv)    traffic locality per subtree over the steady sweeps
  utilization.txt        the 10 busiest link directions; graphs/: their utilization profiles
  nagios/                Nagios 4 objects for this fabric (cfg_dir=$out/nagios)
  events.log             port state changes logged by check_ib_fabric
  jobs.flows             the jobs' traffic, as ibpm-sim traffic reads it
  state/                 the checks' RRD files (one per port) and baseline.cache
  fabric.net, fabric-installed.net, fabric.ibnetdiscover   the simulated fabric and its discovery
EOF
printf '\n==> Time per step\n'
for i in "${!step_names[@]}"; do printf '  %4d s  %s\n' "${step_times[i]}" "${step_names[i]}"; done
printf '  %4d s  in all after the build\n' $((SECONDS - demo_started))
