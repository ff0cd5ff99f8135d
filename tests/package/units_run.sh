#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The installed units' commands do what they say, as the user they run as: ibpm-rrdcached's
# ExecStart runs as ibpm (its /run/ibpm made as systemd would), and through it ibpm-sweep's
# ExecStart (as ibpm, with /etc/ibpm/ibpm.env and its RRDCACHED_ADDRESS) sweeps a simulated fabric
# twice into /var/lib/ibpm, then ibpm-web's, ibpm-map's and ibpm-locality's write the dashboard, the
# map and the locality report into /var/lib/ibpm/reports, without a baseline and then with the one
# README's set-up writes (/var/lib/ibpm/baseline.cache). No systemd runs here: each ExecStart line
# is run by sh as systemd would run it ($VAR split into words, $$ for a literal $). What it wrote is
# removed again; a /var/lib/ibpm that holds anything else is left alone (not run, said so).
# Usage: units_run.sh BUILD_DIR (for ibpm-sim; after the package is installed)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need runuser rrdcached
sim_tool=$(realpath "$1")/bin/ibpm-sim
state=/var/lib/ibpm
if [ -n "$(ls -A "$state" | grep -vx -e reports -e journal || true)" ] ||
   [ -n "$(ls -A "$state/reports")" ] || [ -n "$(ls -A "$state/journal" 2>/dev/null)" ]; then
  echo "not run: $state holds files already"
  exit 0
fi
work=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )/ibpm-units.XXXXXX")
daemon=
cleanup() {
  "$sim_tool" stop --dir "$work/sim" >/dev/null 2>&1 || true
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; fi
  for _ in $(seq 50); do [ -e /run/ibpm/rrdcached.pid ] || break; sleep 0.1; done
  rm -rf "$work" /run/ibpm
  find "$state" -mindepth 1 ! -path "$state/reports" ! -path "$state/journal" -delete
}
trap cleanup EXIT
chmod 755 "$work"
mkdir "$work/clients" && chown ibpm:ibpm "$work/clients"

"$sim_tool" generate --hosts 8 --radix 4 --levels 2 -o "$work/fabric.net" >/dev/null
rc=0; "$sim_tool" start "$work/fabric.net" --dir "$work/sim" >/dev/null || rc=$?
[ "$rc" -eq 77 ] && skip "ibsim, OpenSM or infiniband-diags missing"
[ "$rc" -eq 0 ] || fail "ibpm-sim start: exit $rc"

# ibpm-rrdcached first: the other units reach it through RRDCACHED_ADDRESS.
[ ! -e /run/ibpm ] || fail "/run/ibpm exists: is ibpm-rrdcached running on this host?"
install -d -o ibpm -g ibpm -m 0750 /run/ibpm
rrdcached_line=$(sed -n 's/^ExecStart=//p' /usr/lib/systemd/system/ibpm-rrdcached.service)
runuser -u ibpm -- sh -c "umask 0002; exec $rrdcached_line" > "$work/ibpm-rrdcached.out" 2>&1 &
for _ in $(seq 100); do [ -S /run/ibpm/rrdcached.sock ] && [ -s /run/ibpm/rrdcached.pid ] && break; sleep 0.1; done
daemon=$(cat /run/ibpm/rrdcached.pid 2>/dev/null || true)
[ -S /run/ibpm/rrdcached.sock ] && [ -n "$daemon" ] ||
  { cat "$work/ibpm-rrdcached.out"; fail "ibpm-rrdcached does not listen"; }
echo "ibpm-rrdcached as ibpm: $(stat -c '%U:%G %a' /run/ibpm/rrdcached.sock) /run/ibpm/rrdcached.sock"

# run_unit NAME [prefix command...]: the unit's ExecStart as its User, with its Environment= and
# then its EnvironmentFile (which wins, as in systemd); output in $work/NAME.out.
run_unit() {
  local name=$1; shift
  local unit=/usr/lib/systemd/system/$name.service user line environment
  user=$(sed -n 's/^User=//p' "$unit")
  line=$(sed -n 's/^ExecStart=//p' "$unit" | sed 's/\$\$/$/g')
  environment=$(sed -n 's/^Environment=//p' "$unit" | sed 's/^/export /')
  (cd "$work/clients" && "$@" runuser -u "$user" -- sh -c \
    "$environment
     set -a; . /etc/ibpm/ibpm.env; set +a; umask 0002; $line") > "$work/$name.out" 2>&1
}
for _ in 1 2; do
  rc=0; run_unit ibpm-sweep "$sim_tool" exec --dir "$work/sim" -- || rc=$?
  [ "$rc" -le 2 ] || { cat "$work/ibpm-sweep.out"; fail "ibpm-sweep's command: exit $rc"; }
  sleep 1
done
status=$(grep '^IB FABRIC' "$work/ibpm-sweep.out" | cut -d'|' -f1)
[[ "$status" == "IB FABRIC OK"* ]] || { cat "$work/ibpm-sweep.out"; fail "the sweep is not OK"; }
[ -n "$(find "$state" -name '*.rrd' -user ibpm)" ] || fail "the sweep wrote no RRD file as ibpm"
echo "ibpm-sweep as ibpm: $status"
for report in web map locality; do
  run_unit "ibpm-$report" || { cat "$work/ibpm-$report.out"; fail "ibpm-$report's command failed"; }
done
[ -s "$state/reports/site/index.html" ] || fail "ibpm-web wrote no reports/site/index.html"
# No baseline yet (a fresh install): the dashboard says so. Then README's set-up writes it, and
# the next runs of the same commands compare the fabric with it.
grep -q '>no baseline<' "$state/reports/site/index.html" || fail "ibpm-web: no 'no baseline' card"
"$sim_tool" exec --dir "$work/sim" -- /usr/lib/nagios/plugins/check_ib_topology \
  --write-baseline "$state/baseline.cache" > "$work/baseline.out" 2>&1 ||
  { cat "$work/baseline.out"; fail "check_ib_topology --write-baseline failed"; }
for report in web map; do
  run_unit "ibpm-$report" || { cat "$work/ibpm-$report.out"; fail "ibpm-$report's command failed"; }
done
grep -q 'title="against the baseline"' "$state/reports/site/index.html" ||
  fail "ibpm-web does not compare with the baseline README writes"
echo "ibpm-web, ibpm-map: run without a baseline, then compare with $state/baseline.cache"
grep -q '<svg' "$state/reports/fabric.svg" || fail "ibpm-map wrote no reports/fabric.svg"
grep -q 'Traffic locality' "$state/reports/locality.txt" || fail "ibpm-locality wrote no reports/locality.txt"
echo "ibpm-web, ibpm-map, ibpm-locality as ibpm: $(cd "$state/reports" && ls | tr '\n' ' ')"
