#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times parse_ibnetdiscover on the largest real dump: NVIDIA Selene's compute fabric (2.8 MB,
# 666 switches, 4341 CAs), decompressed to a temporary file first.
#
# Usage: bench/parse_dump.sh [BUILD_DIR]
#   BUILD_DIR defaults to ./build; it must have built ibpm-bench-parse (bench/ in the build).
#   IBPM_REAL_FIXTURES overrides the folder of real dumps (default ../shared/fixtures/real).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
tool=$build/bin/ibpm-bench-parse
fixtures=${IBPM_REAL_FIXTURES:-$here/../../shared/fixtures/real}
dump=$fixtures/nvidia_selene_compute_hdr_666sw_4341ca.ibnetdiscover.xz

[[ -x $tool ]] || { echo "no $tool: build the bench/ targets first" >&2; exit 1; }
[[ -r $dump ]] || { echo "no $dump" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
xz -dc "$dump" > "$tmp/selene.ibnetdiscover"

# In-process: the median of 10 parses, without process start-up.
echo "in-process, 10 parses:"
"$tool" "$tmp/selene.ibnetdiscover" 10

# Whole process (start-up, one parse, exit).
if command -v hyperfine > /dev/null; then
  hyperfine --warmup 3 --runs 20 "$tool $tmp/selene.ibnetdiscover"
else
  times=()
  for _ in $(seq 10); do
    start=$(date +%s%N)
    "$tool" "$tmp/selene.ibnetdiscover" > /dev/null
    times+=($(( ($(date +%s%N) - start) / 1000 )))
  done
  mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
  echo "whole process, median of 10 runs: $(( sorted[5] / 1000 )).$(( sorted[5] % 1000 / 100 )) ms"
fi
