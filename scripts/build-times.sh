#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times a build from scratch without the compiler cache: the wall time of configuring and of
# building, the processor time (user + system) of every compile and link, the total of those, and
# the costliest steps. Processor time is the figure to compare on a shared machine: the wall time
# grows with whatever else runs, the processor time hardly.
# Usage: scripts/build-times.sh [--dir DIR] [--top N] [--demo] [-- cmake arguments]
#   --demo   only what scripts/demo.sh builds (its --target list); default: everything, as
#            scripts/test.sh builds it
#   DIR      the build folder, emptied first (default: build-times); the steps' times are in
#            DIR/step-times.txt ("wall user system output", seconds)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=build-times top=15 targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir=$2; shift ;;
    --top) top=$2; shift ;;
    --demo)
      # The list scripts/demo.sh builds.
      mapfile -t targets < <(sed -n '/^cmake --build .*--target/,/[^\\]$/p' scripts/demo.sh |
        sed 's/.*--target//; s/>.*//; s/\\$//' | tr ' ' '\n' | grep -v '^$')
      ;;
    --) shift; break ;;
    *) echo "usage: $0 [--dir DIR] [--top N] [--demo] [-- cmake arguments]" >&2; exit 2 ;;
  esac
  shift
done
command -v /usr/bin/time >/dev/null || { echo "build-times: needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

rm -rf "$dir"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
log=$dir/step-times.txt
# Every compile and link runs under this launcher, which appends its times to the log.
cat >"$dir/timed" <<'EOF'
#!/bin/sh
out=?
prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
exec /usr/bin/time -a -o "$IBPM_STEP_TIMES" -f "%e %U %S $out" "$@"
EOF
chmod +x "$dir/timed"
export CCACHE_DISABLE=1 IBPM_STEP_TIMES=$log

started=$(date +%s.%N)
scripts/configure.sh "$dir" -DCMAKE_CXX_COMPILER_LAUNCHER="$dir/timed" \
  -DCMAKE_C_COMPILER_LAUNCHER="$dir/timed" -DCMAKE_CXX_LINKER_LAUNCHER="$dir/timed" "$@" \
  >"$dir/configure.log"
configured=$(date +%s.%N)
cmake --build "$dir" -j "$(nproc)" ${targets[@]+--target "${targets[@]}"} >"$dir/build.log" ||
  { tail -30 "$dir/build.log"; exit 1; }
built=$(date +%s.%N)

# The log's lines: "wall user system output"; output named relative to the build folder.
steps=$(awk -v dir="$dir/" '{ out = $4; sub(dir, "", out); printf "%.1f %s\n", $2 + $3, out }' "$log")
awk -v started="$started" -v configured="$configured" -v built="$built" -v jobs="$(nproc)" '
  { total += $1; if ($2 ~ /\.o$/) { compiles++; compile_cpu += $1 } else { links++; link_cpu += $1 } }
  END {
    printf "wall: configure %.0f s, build %.0f s (-j %d)\n", configured - started, built - configured, jobs
    printf "processor time: %.0f s in all: %d compiles %.0f s, %d links %.0f s\n",
           total, compiles, compile_cpu, links, link_cpu
  }' <<<"$steps"
echo "costliest $top steps (processor time, s):"
sort -rn <<<"$steps" | head -n "$top" | awk '{ printf "%8.1f  %s\n", $1, $2 }'
uptime
