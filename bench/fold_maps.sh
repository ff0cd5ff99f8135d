#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# All the maps of a folded fabric: `ibpm-map` with --fold pods writing the overview and every
# drill-down map (each pod and group, each leaf's hosts) as SVG, against Graphviz's own
# `dot -Tsvg` on the unfolded DOT of the same fabric (ibpm-map --fold none -o FILE.dot: every
# device and cable, no layout), which is what one readable picture would otherwise cost.
#   fabrics  the Selene compute and storage dumps and the 8,192-host simulated dump
#            (../shared/fixtures/real), and a generated 3-level fat tree of 11,664 hosts
#   timing   wall and CPU seconds of one run each; `dot` runs under `timeout IBPM_BENCH_DOT_CAP`
#            seconds (default 300), reported as ">N" when it does not finish
# Usage: bench/fold_maps.sh [BUILD_DIR]   (needs ibpm-map and ibpm-sim built)
#   IBPM_BENCH_OUT   folder for the summary (default out/bench)
set -euo pipefail

source "$(dirname "$0")/common.sh" "${1:-}"
cap=${IBPM_BENCH_DOT_CAP:-300}
fixtures=${IBPM_REAL_FIXTURES:-$here/../../shared/fixtures/real}
need_programs dot:graphviz bc
need_built ibpm-map ibpm-sim

tmp=$(mktemp -d /tmp/ibpm-bench-fold.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for f in nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz \
         nvidia_selene_storage_hdr_160sw_1247ca.ibnetdiscover \
         nvidia_sim_qm9700_3level_640sw_8192ca.ibnetdiscover.xz; do
  [[ -f $fixtures/$f ]] || { echo "no $fixtures/$f (IBPM_REAL_FIXTURES)" >&2; exit 1; }
  if [[ $f == *.xz ]]; then xz -dc "$fixtures/$f" > "${f%.xz}"; else cp "$fixtures/$f" .; fi
done
"$bin/ibpm-sim" generate --hosts 11664 --radix 36 --levels 3 --dump fat_tree_11664.ibnetdiscover >/dev/null

seconds() { echo "$(date +%s.%N) - $1" | bc; }
{
  printf '%-44s %-52s %9s %9s\n' fabric command wall_s cpu_s
  for dump in *.ibnetdiscover; do
    name=${dump%.ibnetdiscover}
    mkdir "$name"
    start=$(date +%s.%N)
    report=$( { /usr/bin/time -f '%U %S' "$bin/ibpm-map" --cache "$dump" --no-history --fold pods \
                  -o "$name/map.svg" -v; } 2> time.txt)
    cpu=$(awk '{print $1 + $2}' time.txt)
    printf '%-44s %-52s %9.2f %9.2f\n' "$name" "ibpm-map --fold pods (all maps)" "$(seconds "$start")" "$cpu"
    echo "    ${report#wrote }"
    "$bin/ibpm-map" --cache "$dump" --no-history --fold none -o "$name.dot"
    start=$(date +%s.%N)
    if timeout "$cap" /usr/bin/time -f '%U %S' dot -Tsvg "$name.dot" -o "$name.dot.svg" 2> time.txt; then
      cpu=$(tail -1 time.txt | awk '{print $1 + $2}')
      printf '%-44s %-52s %9.2f %9.2f\n' "$name" "dot -Tsvg, unfolded" "$(seconds "$start")" "$cpu"
    else
      printf '%-44s %-52s %9s %9s\n' "$name" "dot -Tsvg, unfolded" ">$cap" "-"
    fi
  done
} | tee "$out/fold_maps.txt"
