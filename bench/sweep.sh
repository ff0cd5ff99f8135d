#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole-fabric sweep: check_ib_fabric reading the counters of every cabled port of a fabric,
# against the infiniband-diags peers that read the same counters, in the steady state a Nagios
# scheduler sees (the RRD files already in the state directory).
#
# The fabric is the one of check_port.sh: a simulated 2-level fat tree of 648 hosts on 36-port
# switches (36 leaves, 18 spines, 2592 cabled switch and host ports) under ibsim, LIDs assigned
# by one OpenSM sweep (OpenSM then exits: there is no SA). Every command is a client of it, from
# the same tmpfs folder (libumad2sim builds its fake sysfs in the current directory).
#   ours   check_ib_fabric --state-dir STATE            discovers the fabric (its cached topology,
#                                                       STATE/topology.ibnetdiscover, is removed
#                                                       before each run; the RRDs stay)
#          check_ib_fabric --cache fabric.cache         the topology from a libibnetdisc cache file
#          check_ib_fabric --cache fabric.ibnetdiscover the topology from an ibnetdiscover text dump
#          (both made by one `ibnetdiscover --cache fabric.cache > fabric.ibnetdiscover`)
#   (a)    a loop of `perfquery -x LID PORT` over every cabled port (the LID/port list from
#          `ibnetdiscover -p`: hosts' port 1 at their LID, switch ports at the switch's LID);
#          2592 processes take ~8 s, so it has its own hyperfine run of IBPM_BENCH_LOOP_RUNS
#   (b)    ibqueryerrors --counters --skip-sl, live discovery and --load-cache fabric.cache
#          (--skip-sl: without it ibqueryerrors asks the SA for path records, finds none here and
#          exits 0 having read nothing; its summary "N ports checked" is checked)
#   (c)    the highest PMA query rate the simulator answers through our MAD engine, a window of
#          64 queries in flight (ibpm-bench-mad --window 64 --rounds 5, median of 3 runs, as in
#          mad_rate.sh); the sweep's own rate is mads / sweep_time from check_ib_fabric's perfdata
#          (median of 3 runs), reported as a percentage of it.
# Whole processes are timed with hyperfine (-N -i: a WARNING or CRITICAL exit is no failure here;
# each command is run once first: check_ib_fabric must not be UNKNOWN). Medians are compared.
# That first run is also measured: its max RSS (GNU time's %M; `time` package) and the MADs it
# sends (the PortXmitPkts of the client's own port before and after: ibsim counts every MAD that
# leaves it, SMPs and PMA queries, but not the queries a node sends to its own LID).
#
# Usage: bench/sweep.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built check_ib_fabric, ibpm-bench-mad, ibpm-sim.
#   IBPM_BENCH_OUT        folder for hyperfine's JSON and the summary (default out/bench)
#   IBPM_BENCH_RUNS       timed runs per command (default 10; 2 warm-ups each)
#   IBPM_BENCH_LOOP_RUNS  timed runs of the perfquery loop (default 3; 1 warm-up)
#   IBPM_BENCH_PEERS_ONLY=1  measure the peers and (c) alone, without check_ib_fabric
#   FABRIC_ARGS           more options for check_ib_fabric (e.g. "--window 128")
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
runs=${IBPM_BENCH_RUNS:-10}
loop_runs=${IBPM_BENCH_LOOP_RUNS:-3}
peers_only=${IBPM_BENCH_PEERS_ONLY:-0}
read -ra fabric_args <<<"${FABRIC_ARGS:-}"
need_programs hyperfine perfquery:infiniband-diags ibqueryerrors:infiniband-diags \
  ibnetdiscover:infiniband-diags
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time (GNU time, for the max RSS) missing: apt-get install time" >&2; exit 1; }
tools=(ibpm-bench-mad ibpm-sim)
[[ $peers_only == 1 ]] || tools+=(check_ib_fabric)
for tool in "${tools[@]}"; do
  [[ -x $bin/$tool ]] || { echo "no $bin/$tool: build first (or IBPM_BENCH_PEERS_ONLY=1: the peers alone)" >&2; exit 1; }
done

tmp=$(mktemp -d /dev/shm/ibpm-bench.XXXXXX)
trap '"$bin/ibpm-sim" stop --dir "$tmp/sim" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
cd "$tmp"
state=$tmp/state
mkdir -p "$state"

# Runs a command as a client of the simulation (IBSIM_SOCKNAME, LD_PRELOAD=libumad2sim.so).
client() { ( . "$tmp/sim/env" && exec "$@" ); }

echo "fabric: 2-level fat tree, 648 hosts, 36-port switches"
# "wrote fabric.net: 648 hosts, 36 leaves, 18 spines, 1296 links"
generated=$("$bin/ibpm-sim" generate --hosts 648 --radix 36 -o fabric.net)
echo "$generated"
links=$(sed -n 's/.* \([0-9]*\) links.*/\1/p' <<<"$generated")
nports=$((2 * links))
"$bin/ibpm-sim" start fabric.net --dir "$tmp/sim" >/dev/null

# The cabled ports (lines: CA 64 1 0x...050f 4x HDR - SW 130 18 0x... ( 'cn0648' - 'leaf36' ):
# type, LID, port of each cabled port, seen from its own side) and the two topology files.
client ibnetdiscover -p 2>/dev/null | awk '$1 == "CA" || $1 == "SW" {print $2, $3}' > ports.list
(($(wc -l < ports.list) == nports)) ||
  { echo "ibnetdiscover -p lists $(wc -l < ports.list) ports, not $nports" >&2; exit 1; }
{ echo "set -e"; sed 's/^/perfquery -x /' ports.list; } > perfquery_loop.sh
client ibnetdiscover --cache "$tmp/fabric.cache" > fabric.ibnetdiscover 2>/dev/null
echo "cabled ports: $nports; fabric.cache $(stat -c %s fabric.cache) B, fabric.ibnetdiscover $(stat -c %s fabric.ibnetdiscover) B"

# PortXmitPkts of the client's own port (PortCountersExtended; a query to its own LID is not counted).
xmit_pkts() { client perfquery -x 2>/dev/null | sed -n 's/^PortXmitPkts:\.*\([0-9]*\)$/\1/p'; }
# measure KEY COMMAND...: runs COMMAND once under GNU time; sets rc and writes
# "KEY<TAB>max RSS KB<TAB>MADs sent" to meta.tsv and its output to KEY.out.
measure() {
  local key=$1 before after
  shift
  before=$(xmit_pkts)
  rc=0
  client /usr/bin/time -f %M -o "$key.rss" "$@" > "$key.out" 2> "$key.err" || rc=$?
  after=$(xmit_pkts)
  printf '%s\t%s\t%s\n' "$key" "$(tail -1 "$key.rss")" "$((after - before))" >> meta.tsv
}
: > meta.tsv

fabric_cmd="$bin/check_ib_fabric --state-dir $state ${fabric_args[*]}"
cache_cmd="$bin/check_ib_fabric --cache $tmp/fabric.cache --state-dir $state ${fabric_args[*]}"
text_cmd="$bin/check_ib_fabric --cache $tmp/fabric.ibnetdiscover --state-dir $state ${fabric_args[*]}"
live_peer="ibqueryerrors --counters --skip-sl"
cache_peer="ibqueryerrors --counters --skip-sl --load-cache $tmp/fabric.cache"
loop_cmd="sh $tmp/perfquery_loop.sh"
perfdata=()
if [[ $peers_only != 1 ]]; then
  # Warm the state: the first run discovers the fabric and creates one RRD per cabled port.
  rc=0
  text=$(client $fabric_cmd 2>&1) || rc=$?
  ((rc != 3)) || { echo "check_ib_fabric is UNKNOWN: $text" >&2; exit 1; }
  # Once each, in the steady state (second sample): not UNKNOWN; max RSS and MADs sent.
  rm -f "$state/topology.ibnetdiscover"
  for key in fabric cache text; do
    cmd=${key}_cmd
    measure "ours_$key" ${!cmd}
    line=$(head -1 "ours_$key.out")
    ((rc != 3)) || { echo "UNKNOWN: ${!cmd}: $line $(cat "ours_$key.err")" >&2; exit 1; }
    printf '  %-6s exit %s: %s\n' "$key" "$rc" "${line:0:100}"
  done
  # The sweep's perfdata: sweep_time=<s>s read_spread=<s>s mads=<n>, three runs.
  for _ in 1 2 3; do
    rc=0
    text=$(client $cache_cmd 2>/dev/null) || rc=$?
    ((rc != 3)) || { echo "UNKNOWN: $cache_cmd: $text" >&2; exit 1; }
    perf=$(head -1 <<<"$text")
    [[ $perf == *"|"* ]] || { echo "no perfdata in: $perf" >&2; exit 1; }
    perfdata+=("${perf#*|}")
  done
fi
for key in live cache; do
  cmd=${key}_peer
  measure "peer_$key" ${!cmd}
  checked=$(sed -n 's/^## *\([0-9]*\) ports checked.*/\1/p' "peer_$key.out")
  [[ $checked == "$nports" ]] ||
    { echo "${!cmd} checked ${checked:-no} ports, not $nports: $(tail -3 "peer_$key.out") $(cat "peer_$key.err")" >&2; exit 1; }
  echo "  ${!cmd}: exit $rc, $checked ports checked"
done
measure peer_loop $loop_cmd
((rc == 0)) || { echo "the perfquery loop fails: $(tail -3 peer_loop.err)" >&2; exit 1; }

# (c): the MAD engine's rate, window 64.
rates=()
for _ in 1 2 3; do
  line=$(client "$bin/ibpm-bench-mad" --window 64 --rounds 5 2>/dev/null) ||
    { echo "ibpm-bench-mad --window 64 failed: $line" >&2; exit 1; }
  rates+=("$(sed -n 's/.*: \([0-9]*\) queries\/s.*/\1/p' <<<"$line")")
done
mapfile -t sorted < <(printf '%s\n' "${rates[@]}" | sort -n)
engine_rate=${sorted[1]}
echo "(c) ibpm-bench-mad --window 64 --rounds 5: ${rates[*]} queries/s"

# hyperfine: the names are the keys of meta.tsv, then a label.
names=() cmds=() prepares=()
if [[ $peers_only != 1 ]]; then
  names+=("ours_fabric: check_ib_fabric (discovery)" "ours_cache: check_ib_fabric --cache fabric.cache"
          "ours_text: check_ib_fabric --cache fabric.ibnetdiscover")
  cmds+=("$fabric_cmd" "$cache_cmd" "$text_cmd")
  prepares+=("rm -f $state/topology.ibnetdiscover" true true)
fi
names+=("peer_live: ibqueryerrors --counters (discovery)" "peer_cache: ibqueryerrors --counters --load-cache")
cmds+=("$live_peer" "$cache_peer")
prepares+=(true true)
args=()
for i in "${!names[@]}"; do
  args+=(-n "${names[i]}" "${cmds[i]}")
  [[ $peers_only == 1 ]] || args+=(--prepare "${prepares[i]}")
done
echo "the sweep: hyperfine -N -i --warmup 2 --runs $runs"
client hyperfine -N -i --warmup 2 --runs "$runs" --style basic --export-json "$out/sweep.json" "${args[@]}" \
  > hyperfine.log 2>&1 || { cat hyperfine.log >&2; exit 1; }
echo "(a) the perfquery loop ($nports processes): hyperfine -N --warmup 1 --runs $loop_runs"
client hyperfine -N --warmup 1 --runs "$loop_runs" --style basic --export-json "$out/sweep_perfquery.json" \
  -n "peer_loop: perfquery -x loop over $nports ports" "$loop_cmd" \
  > hyperfine.log 2>&1 || { cat hyperfine.log >&2; exit 1; }

python3 - "$out/sweep.json" "$out/sweep_perfquery.json" meta.tsv "$nports" "$engine_rate" "$runs" "$loop_runs" \
  "${perfdata[@]}" <<'PY' | tee "$out/sweep.txt"
import json, re, statistics, sys
main, loop, meta_path, nports, engine, runs, loop_runs = sys.argv[1:8]
nports, engine = int(nports), float(engine)
results = {}
for path in (main, loop):
    for r in json.load(open(path))["results"]:
        key, label = r["command"].split(": ", 1)
        results[key] = dict(r, label=label)
meta = {}
for row in open(meta_path):
    key, rss, mads = row.rstrip("\n").split("\t")
    meta[key] = (int(rss) / 1024 if rss.isdigit() else None, int(mads))
# Each command against ours: live discovery against ours discovering, the others against --cache fabric.cache.
ref = {"ours_fabric": "ours_fabric", "peer_live": "ours_fabric"}
print(f"{'command':48} {'median s':>9} {'min s':>7} {'vs ours':>8} {'RSS MB':>7} {'MADs':>6} {'/port':>5}")
for key in ("ours_fabric", "ours_cache", "ours_text", "peer_live", "peer_cache", "peer_loop"):
    if key not in results:
        continue
    r, other = results[key], results.get(ref.get(key, "ours_cache"))
    ratio = f"{r['median'] / other['median']:7.1f}x" if other else f"{'-':>8}"
    rss, mads = meta.get(key, (None, 0))
    rss = f"{rss:7.1f}" if rss is not None else f"{'-':>7}"
    print(f"{r['label']:48} {r['median']:9.3f} {r['min']:7.3f} {ratio} {rss} {mads:6d} {mads / nports:5.2f}")
print(f"  medians of {runs} runs (2 warm-ups), the perfquery loop of {loop_runs} (1 warm-up); "
      f"MADs: sent by the first run through the client's port ({nports} cabled ports)")

def times(a, b):
    return f"{results[a]['median'] / results[b]['median']:.1f}x" if a in results and b in results else "n/a"
print(f"(a) perfquery loop / ours(cache) = {times('peer_loop', 'ours_cache')} (aim >= 100x)")
print(f"(b) ibqueryerrors cache / ours cache = {times('peer_cache', 'ours_cache')}, "
      f"ibqueryerrors live / ours discovery = {times('peer_live', 'ours_fabric')} (aim >= 3x)")

def perfvalue(perf, label):
    m = re.search(r"(?:^|\s)'?" + label + r"'?=([0-9.eE+-]+)", perf)
    return float(m.group(1)) if m else None
sweeps = []
for perf in sys.argv[8:]:
    sweep_time, mads, spread = (perfvalue(perf, k) for k in ("sweep_time", "mads", "read_spread"))
    if sweep_time is None or mads is None:
        sys.exit(f"no sweep_time or mads in the perfdata: {perf}")
    sweeps.append((mads / sweep_time if sweep_time > 0 else float("inf"), sweep_time, mads, spread))
if sweeps:
    rate, sweep_time, mads, spread = sorted(sweeps)[len(sweeps) // 2]
    print(f"(c) sweep MAD rate = {rate:.0f}/s = {100 * rate / engine:.0f} % of engine max {engine:.0f}/s "
          f"(aim >= 80 %); median of {len(sweeps)} sweeps: {mads:.0f} MADs in {sweep_time * 1000:.1f} ms, "
          f"read_spread {spread * 1000 if spread is not None else float('nan'):.1f} ms")
else:
    print(f"(c) sweep MAD rate = n/a (check_ib_fabric not measured); engine max {engine:.0f}/s "
          f"(ibpm-bench-mad --window 64, median of 3)")
PY
echo "hyperfine JSON: $out/sweep.json $out/sweep_perfquery.json"
