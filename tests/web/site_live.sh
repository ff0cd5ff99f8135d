#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The dashboard end to end: a simulated fabric (ibsim + OpenSM) with a degraded cable, a host
# whose NodeDescription holds a <script>, steady traffic and rising symbol errors is swept by
# check_ib_fabric; ibpm-web writes the site; headless Chromium loads it from file://, checks the
# map, tables and graphs, sorts a table and clicks a switch in the map (check_site.py).
# Usage: site_live.sh BIN_DIR
# The screenshots (overview.png, node.png) and the site are kept in IBPM_TEST_ARTIFACTS, by
# default BIN_DIR/../test-artifacts/web (the build tree's).
# Exit 77 (skipped) when ibsim, OpenSM or Chromium are missing.
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v chromium >/dev/null || { echo "chromium is not installed: skipped"; exit 77; }
command -v python3 >/dev/null || { echo "python3 is not installed: skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d)
sim=$tmp/sim
state=$tmp/state
site=$tmp/site
cleanup() {
  "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
on_fabric() { "$bin/ibpm-sim" exec --dir "$sim" -- "$@" 2>"$tmp/client.log"; }  # ibsim clients chat on stderr

# 24 hosts, 4 per leaf (ports 1-4 down, 5-8 up). The baseline is taken on the healthy fabric;
# the fabric then restarts with leaf02's first uplink trained to 1x (ibsim sets widths only
# from its net file).
hostile='<script>window.__pwned=1</script>'
start_fabric() {  # NET_FILE
  sed -i "s|\"cn0024\"|\"cn0024 $hostile\"|g" "$1"
  local rc=0
  "$bin/ibpm-sim" start "$1" --dir "$sim" --replace >/dev/null || rc=$?
  [[ $rc == 77 ]] && { echo "ibsim or OpenSM missing: skipped"; exit 77; }
  [[ $rc == 0 ]] || fail "ibpm-sim start: exit $rc"
}
"$bin/ibpm-sim" generate --hosts 24 --radix 8 -o "$tmp/healthy.net" >/dev/null
start_fabric "$tmp/healthy.net"
on_fabric "$bin/check_ib_topology" --write-baseline "$tmp/baseline.cache" >/dev/null
"$bin/ibpm-sim" generate --hosts 24 --radix 8 --degrade 'leaf02[5]=1x' -o "$tmp/fabric.net" >/dev/null
start_fabric "$tmp/fabric.net"

# A libibnetdisc cache keeps every port's PortInfo, for the sweep and the site.
on_fabric "$bin/ibpm-topology" --write-cache "$tmp/fabric.cache" >/dev/null
grep -qF "$hostile" "$tmp/fabric.cache" || fail "the hostile NodeDescription did not reach the cache"

# A ring inside leaf01 (local), leaf02 -> leaf03 (across the spines), leaf04 mostly local.
cat >"$tmp/jobs.flows" <<'FLOWS'
cn0001 cn0002 2GB/s
cn0002 cn0003 2GB/s
cn0003 cn0004 2GB/s
cn0004 cn0001 2GB/s
cn0005 cn0009 3GB/s
cn0006 cn0010 3GB/s
cn0013 cn0014 1GB/s
cn0014 cn0013 1GB/s
cn0015 cn0021 500MB/s
FLOWS

sweep=(--cache "$tmp/fabric.cache" --state-dir "$state" --no-syslog --rrd-step 1)
on_fabric "$bin/check_ib_fabric" "${sweep[@]}" >/dev/null || true  # makes the files
for k in 1 2 3 4; do
  sleep 2
  "$bin/ibpm-sim" traffic --dir "$sim" "$tmp/jobs.flows" >/dev/null
  "$bin/ibpm-sim" cmd --dir "$sim" \
    "PerformanceSet \"leaf03\"[2] PortCounters.SymbolErrorCounter=$((k * 40))" >/dev/null
  rc=0
  on_fabric "$bin/check_ib_fabric" "${sweep[@]}" >/dev/null || rc=$?
  [[ $rc -le 2 ]] || fail "check_ib_fabric sweep $k: exit $rc"
done
[[ -f $state/sweep/fabric.json ]] || fail "no sweep summary"

web=("$bin/ibpm-web" --cache "$tmp/fabric.cache" --state-dir "$state" --window 12
     --baseline "$tmp/baseline.cache")
"${web[@]}" -o "$site" -v
nodes=$(ls "$site/nodes" | wc -l)
links=$(ls "$site/links" | wc -l)
[[ $nodes == 34 && $links == 48 ]] || fail "$nodes node pages and $links cable pages, expected 34 and 48"
ls "$site"/graphs/switch-*.png >/dev/null 2>&1 || fail "no switch profiles"
ls "$site"/graphs/errors-*.png >/dev/null 2>&1 || fail "no error graph for leaf03[2]"
grep -q '>1</div><div class="label">degraded links' "$site/index.html" ||
  fail "the degraded cable is not counted on the overview"
grep -q 'degraded: 1x' "$site/links/"*.html || fail "no cable page says the cable is degraded"
leaf03=$(grep -l '<h1>leaf03</h1>' "$site"/nodes/*.html)
grep -q 'SymbolErrorCounter 160' "$leaf03" || fail "leaf03[2]'s last SymbolErrorCounter (160) is not on its page"
grep -q '<table class="sortable" id="counters">' "$leaf03" || fail "no raw counters on leaf03's page"
# Bit error ratios from the sweeps' sample record: 8 s of history, so not judged over 12 minutes,
# but the 160 symbol errors seen are there.
ber_page=$(grep -l 'id="ber"' "$site"/links/*.html | xargs -r grep -l 'leaf03\[2\]' |
  xargs -r grep -l 'symbol_ber: not judged' | head -1)
[[ -n $ber_page ]] || fail "no cable page shows leaf03[2]'s bit error ratio windows"
grep -q '>160</td>' "$ber_page" || fail "leaf03[2]'s 160 symbol errors are not in its BER table"
grep -q 'history for' "$ber_page" || fail "the BER table does not say how much history it has"

# Bad input: one line, non-zero, the site untouched.
before=$(stat -c %Y "$site/index.html")
out=$("$bin/ibpm-web" --cache "$tmp/missing.dump" --state-dir "$state" -o "$site" 2>&1) && fail "a missing topology passed"
[[ $(wc -l <<<"$out") == 1 && $out == ibpm-web:* ]] || fail "not one line: $out"
mkdir "$tmp/www" && echo mine >"$tmp/www/index.html"
out=$("${web[@]}" -o "$tmp/www" 2>&1) && fail "an operator's folder was replaced"
[[ $(cat "$tmp/www/index.html") == mine ]] || fail "the operator's folder was changed"
[[ $(stat -c %Y "$site/index.html") == "$before" ]] || fail "a failed run touched the site"

artifacts=${IBPM_TEST_ARTIFACTS:-$bin/../test-artifacts/web}
mkdir -p "$artifacts"
rm -rf "$artifacts/site" && cp -r "$site" "$artifacts/site"
python3 "$here/check_site.py" "$site" --artifacts "$artifacts" --hostile-name "$hostile" --switch-name leaf01
