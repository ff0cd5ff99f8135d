#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Folded maps of large fabrics: ibpm-map chooses the fold by itself; the overview keeps at most
# 400 nodes and a shape of at most 3:1, and every switch is at most two clicks away (check_fold.py
# follows the SVG files' links). Also a PNG of the overview, and --fold none refused as PNG.
# Usage: fold_maps.sh IBPM_MAP IBPM_SIM real|generated FIXTURES_DIR
# real: the Selene compute and storage dumps and the 8,192-host simulated dump (skipped, 77, when
# the fixtures are absent); generated: a 3-level fat tree of 11,664 hosts from ibpm-sim.
set -euo pipefail
map=$1 sim=$2 which=$3 fixtures=$4
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

dumps=()
if [[ $which == real ]]; then
  for f in nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz \
           nvidia_selene_storage_hdr_160sw_1247ca.ibnetdiscover \
           nvidia_sim_qm9700_3level_640sw_8192ca.ibnetdiscover.xz; do
    [[ -f $fixtures/$f ]] || { echo "no $fixtures/$f: skipped"; exit 77; }
    out=$tmp/${f%.xz}
    if [[ $f == *.xz ]]; then xz -dc "$fixtures/$f" >"$out"; else cp "$fixtures/$f" "$out"; fi
    dumps+=("$out")
  done
else
  "$sim" generate --hosts 11664 --radix 36 --levels 3 --dump "$tmp/fat_tree_11664.ibnetdiscover" >/dev/null
  dumps+=("$tmp/fat_tree_11664.ibnetdiscover")
fi

for dump in "${dumps[@]}"; do
  name=$(basename "$dump" .ibnetdiscover)
  mkdir "$tmp/$name"
  start=$(date +%s.%N)
  report=$("$map" --cache "$dump" --no-history -o "$tmp/$name/map.svg" -v)
  took=$(echo "$(date +%s.%N) - $start" | bc)
  [[ $report == *"fold pods"* ]] || fail "$name: auto did not fold by pods: $report"
  [[ -f $tmp/$name/map-maps/.ibpm-map ]] || fail "$name: no drill-down folder"
  echo "$name: $report (${took} s)"
  python3 "$here/check_fold.py" "$dump" "$tmp/$name/map.svg" || fail "$name"
done

# The overview as PNG fits cairo; the unfolded map does not, and says so instead of shrinking.
dump=${dumps[-1]}
"$map" --cache "$dump" --no-history -o "$tmp/overview.png"
[[ $(head -c 4 "$tmp/overview.png" | tail -c 3) == PNG ]] || fail "overview.png is not a PNG"
rc=0
"$map" --cache "$dump" --no-history --fold none -o "$tmp/whole.png" 2>"$tmp/err.txt" || rc=$?
if ((rc == 0)); then
  fail "--fold none as PNG was written (cairo would have shrunk it)"
fi
grep -q "above the PNG renderer's 32,767 px a side" "$tmp/err.txt" || fail "no reason given: $(cat "$tmp/err.txt")"
[[ ! -e $tmp/whole.png ]] || fail "a refused PNG was left behind"
echo ok
