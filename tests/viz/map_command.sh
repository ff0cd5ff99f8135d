#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# ibpm-map end to end on a generated fat tree and a hand-written hostile dump.
# Usage: map_command.sh IBPM_MAP IBPM_SIM
set -euo pipefail
map=$1 sim=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$sim" generate --hosts 648 --radix 36 --dump fabric.ibnetdiscover >/dev/null
empty_state=$tmp/state  # no RRD files: the map shows the topology, grey links

# Folded automatically: 702 nodes > 300, and folded by hosts it would draw 684 edges (> 400), so
# by pods: each leaf a node with its hosts (its map one click down), the spines one group.
"$map" --cache fabric.ibnetdiscover --state-dir "$empty_state" -o auto.svg
grep -q 'xlink:href="auto-maps/leaf-0x' auto.svg || fail "auto: no links to the leaves' maps"
grep -q 'xlink:href="auto-maps/group-0x' auto.svg || fail "auto: no link to the spine group's map"
grep -q 'xlink:href="../nodes/0x' auto-maps/leaf-*.svg || fail "a leaf's map has no node URLs"
grep -q 'xlink:href="../auto.svg"' auto-maps/group-*.svg || fail "no way up from the group's map"

# Every format, by extension; folded by hosts.
"$map" --cache fabric.ibnetdiscover --state-dir "$empty_state" --fold hosts -o map.svg
grep -q '</svg>' map.svg || fail "map.svg is not a whole SVG"
grep -q 'link colour: utilization' map.svg || fail "no legend in map.svg"
grep -q 'xlink:href="nodes/0x' map.svg || fail "no node URLs"
grep -q '18 hosts' map.svg || fail "hosts not folded"
"$map" --cache fabric.ibnetdiscover --state-dir "$empty_state" -o map.png
[[ $(head -c 4 map.png | tail -c 3) == PNG ]] || fail "map.png is not a PNG"
"$map" --cache fabric.ibnetdiscover --state-dir "$empty_state" -o map.pdf
[[ $(head -c 4 map.pdf) == %PDF ]] || fail "map.pdf is not a PDF"

# --fold none: one node per device (648 hosts + 54 switches + the legend), one edge per cable.
"$map" --cache fabric.ibnetdiscover --state-dir "$empty_state" --fold none -o plain.dot
nodes=$(grep -c 'id=\(n0x\|h0x\|legend\)' plain.dot || true)
edges=$(grep -c -- ' -> ' plain.dot || true)
[[ $nodes == 703 && $edges == 1296 ]] || fail "--fold none: $nodes nodes, $edges edges"
dot -Tsvg plain.dot -o /dev/null 2>/dev/null || fail "dot cannot read plain.dot"

# --url-prefix and --no-links.
"$map" --cache fabric.ibnetdiscover --no-history --fold hosts --url-prefix 'https://mon/ib/' -o prefixed.svg
grep -q 'xlink:href="https://mon/ib/links/0x' prefixed.svg || fail "--url-prefix not applied"
"$map" --cache fabric.ibnetdiscover --no-history --no-links -o bare.svg
! grep -q 'xlink:href=' bare.svg || fail "--no-links left URLs"

# --baseline: a cable that trained at 1x on both ends (so both enable only 1x) is degraded only
# against the fabric as installed.
"$sim" generate --hosts 648 --radix 36 --degrade 'leaf01[19]=1x' --dump degraded.ibnetdiscover >/dev/null
"$map" --cache degraded.ibnetdiscover --no-history -o alone.dot
! grep -q 'expected 4x HDR' alone.dot || fail "degraded without a baseline"
"$map" --cache degraded.ibnetdiscover --no-history --baseline fabric.ibnetdiscover --fold hosts -o against.dot
grep -q '1x HDR, expected 4x HDR' against.dot || fail "--baseline: the 1x cable is not degraded"
# Folded by pods: leaf01's node and its edge to the spines count it; leaf01's map names it.
"$map" --cache degraded.ibnetdiscover --no-history --baseline fabric.ibnetdiscover -o folded.svg
grep -q '1 degraded cable' folded.svg || fail "--fold pods: leaf01's node does not count the cable"
grep -q 'x18, 1 degraded' folded.svg || fail "--fold pods: leaf01's uplinks do not count the cable"
grep -q '1x HDR, expected 4x HDR' folded-maps/group-*.svg || fail "the spines' map does not name the cable"

# Bad input: non-zero, one line "ibpm-map: reason", the previous map untouched, no debris.
cp map.svg before.svg
expect_failure() {
  local rc=0
  "$map" "$@" 2> err.txt >/dev/null || rc=$?
  ((rc != 0)) || fail "ibpm-map $* succeeded"
  [[ $(wc -l < err.txt) == 1 && $(cat err.txt) == "ibpm-map: "* ]] ||
    fail "ibpm-map $*: stderr is not one line: $(cat err.txt)"
}
expect_failure --cache missing.ibnetdiscover --no-history -o map.svg
expect_failure --cache fabric.ibnetdiscover --no-history -o map.jpg
printf 'hello\n' > broken.ibnetdiscover
expect_failure --cache broken.ibnetdiscover --no-history -o map.svg
expect_failure --cache fabric.ibnetdiscover --no-history -o "$tmp/no/such/dir/map.svg"
# No topology saved and no --cache: never a discovery, the file to make named instead.
expect_failure --state-dir "$empty_state" --no-history -o map.svg
grep -qF "no topology file $empty_state/topology.ibnetdiscover: " err.txt ||
  fail "without a topology: $(cat err.txt)"
cmp -s map.svg before.svg || fail "a failed run changed map.svg"
ls -a | grep -q '\.tmp' && fail "temporary files left: $(ls -a)"

# A hostile NodeDescription: markup, quotes, Graphviz escapes.
cat > hostile.ibnetdiscover <<'DUMP'
switchguid=0x10(10)
Switch	40 "S-0000000000000010"		# "spine01" base port 0 lid 1 lmc 0
[1]	"S-0000000000000020"[21]		# "evil" lid 2 4xHDR

switchguid=0x20(20)
Switch	40 "S-0000000000000020"		# "<script>alert(1)</script> \N \G <b>x</b> &amp;" base port 0 lid 2 lmc 0
[21]	"S-0000000000000010"[1]		# "spine01" lid 1 4xHDR
DUMP
"$map" --cache hostile.ibnetdiscover --no-history -o hostile.svg
! grep -q '<script' hostile.svg || fail "markup from a NodeDescription reached the SVG"
! grep -q '<b>x' hostile.svg || fail "HTML from a NodeDescription reached the SVG"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt; \\N \\G' hostile.svg ||
  fail "the hostile description is not shown literally"
echo "ok"
