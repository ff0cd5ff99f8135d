#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Faults deep inside a pod stay visible on the folded overview: a 3-level fat tree (54 hosts,
# 6 pods) in ibsim with one spine uplink trained at 1x (degraded against the healthy fabric as
# baseline) and rising symbol errors on one leaf port, swept by check_ib_fabric into RRD history.
# The overview marks the pod (its count of faults) and its uplinks' edge; the pod's map names
# the switch and the cable. Usage: fold_faults.sh BIN_DIR. Exit 77 without ibsim or OpenSM.
set -euo pipefail
bin=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
tmp=$(mktemp -d)
sim=$tmp/sim
cleanup() {
  "$bin/ibpm-sim" stop --dir "$sim" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
on_fabric() { "$bin/ibpm-sim" exec --dir "$sim" -- "$@" 2>"$tmp/client.log"; }

start_fabric() {  # NET_FILE
  local rc=0
  "$bin/ibpm-sim" start "$1" --dir "$sim" --replace >/dev/null || rc=$?
  [[ $rc == 77 ]] && { echo "ibsim or OpenSM missing: skipped"; exit 77; }
  [[ $rc == 0 ]] || fail "ibpm-sim start: exit $rc"
}
# The baseline from the healthy fabric; then spine04's first uplink trained at 1x.
tree=(--hosts 54 --radix 6 --levels 3)
"$bin/ibpm-sim" generate "${tree[@]}" -o "$tmp/healthy.net" >/dev/null
start_fabric "$tmp/healthy.net"
on_fabric "$bin/check_ib_topology" --write-baseline "$tmp/baseline.cache" >/dev/null
"$bin/ibpm-sim" generate "${tree[@]}" --degrade 'spine04[4]=1x' -o "$tmp/fabric.net" >/dev/null
start_fabric "$tmp/fabric.net"
on_fabric "$bin/ibpm-topology" --write-cache "$tmp/fabric.cache" >/dev/null

sweep=(--cache "$tmp/fabric.cache" --state-dir "$tmp/state" --no-syslog --rrd-step 1)
on_fabric "$bin/check_ib_fabric" "${sweep[@]}" >/dev/null || true
for k in 1 2 3; do
  sleep 2
  "$bin/ibpm-sim" cmd --dir "$sim" \
    "PerformanceSet \"leaf05\"[1] PortCounters.SymbolErrorCounter=$((k * 40))" >/dev/null
  rc=0
  on_fabric "$bin/check_ib_fabric" "${sweep[@]}" >/dev/null || rc=$?
  [[ $rc -le 2 ]] || fail "check_ib_fabric sweep $k: exit $rc"
done

"$bin/ibpm-map" --cache "$tmp/fabric.cache" --state-dir "$tmp/state" --window 12 \
  --baseline "$tmp/baseline.cache" --fold pods -o "$tmp/map.svg" -v
pod=$(grep -l 'spine04' "$tmp"/map-maps/pod-*.svg | head -1)
[[ -n $pod ]] || fail "no pod map holds spine04"
pod_id=u-pod-$(basename "$pod" .svg | sed 's/^pod-//')
# The overview: the pod's node counts both faults in red, its uplinks' edge counts the cable.
node=$(python3 - "$tmp/map.svg" "$pod_id" <<'PY'
import sys, xml.etree.ElementTree as ET
S = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter(S + "g"):
    if g.get("id") == sys.argv[2]:
        print(" | ".join(t.text or "" for t in g.iter(S + "text")))
        print("stroke:", " ".join(p.get("stroke", "") for p in g.iter(S + "polygon")))
PY
)
echo "overview: $node"
[[ $node == *"1 cable with errors"* && $node == *"1 degraded cable"* ]] ||
  fail "the pod's node does not count the faults inside: $node"
[[ $node == *"#e31a1c"* ]] || fail "the pod's node is not bordered critical: $node"
grep -q "1 degraded" "$tmp/map.svg" || fail "no edge of the overview counts the degraded uplink"
# One click down: the pod's map names the erroring switch and the degraded cable.
grep -q 'leaf05' "$pod" || fail "the pod's map does not show leaf05"
grep -q 'health: critical (1 link with errors)' "$pod" || fail "the pod's map does not say leaf05 has errors"
grep -q '1x HDR, expected 4x HDR' "$pod" || fail "the pod's map does not name the degraded cable"
echo ok
